// Delivery analytics' operations (contract §17): the figures of a period, and a tour's plan against what happened.
import type { Deps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { badParameter } from '../../http/errors.ts';
import { findTourPlan, tourActuals } from '../dispatch/index.ts';
import { serviceAreaTimeZones } from '../identity/index.ts';
import { requireDeliveryAnalytics, requireTourAnalytics } from './access.ts';
import { deliveryFigures, tourDistanceMeters } from './repository.ts';
import type { DeliveriesQuery, DeliveryAnalytics, TourAnalytics } from './schemas.ts';

/** The longest period one read covers: a year and its edges (decision 1741). */
export const MAX_PERIOD_DAYS = 400;

export async function getDeliveryAnalytics(deps: Pick<Deps, 'db'>, actor: Actor, query: DeliveriesQuery): Promise<DeliveryAnalytics> {
  const scope = requireDeliveryAnalytics(actor);
  const from = new Date(query.from);
  const to = new Date(query.to);
  if (!(from < to)) throw badParameter('parameter_invalid', 'to', 'to must be after from.');
  if (to.getTime() - from.getTime() > MAX_PERIOD_DAYS * 86_400_000) throw badParameter('parameter_invalid', 'to', `A period covers at most ${MAX_PERIOD_DAYS} days.`);
  const figures = await deliveryFigures(
    deps.db,
    {
      tenantId: actor.tenantId,
      from,
      to,
      serviceAreaId: query.service_area_id ?? null,
      organizationId: query.organization_id ?? null,
      visibleToOrganizationIds: scope.visibleToOrganizationIds,
      stopType: query.filters?.stop_type ?? null,
    },
    await serviceAreaTimeZones(deps.db, actor.tenantId),
  );
  return { from: from.toISOString(), to: to.toISOString(), ...figures };
}

export async function getTourAnalytics(deps: Pick<Deps, 'db'>, actor: Actor, tourId: string): Promise<TourAnalytics> {
  const tour = await requireTourAnalytics(deps.db, actor, tourId);
  const [plan, actual, distance] = await Promise.all([
    findTourPlan(deps.db, actor.tenantId, tour.id),
    tourActuals(deps.db, actor.tenantId, tour.id),
    tourDistanceMeters(deps.db, actor.tenantId, tour.id),
  ]);
  return {
    planned: plan ? { stops: plan.stops, distance_m: plan.distanceM, finish_at: plan.finishAt?.toISOString() ?? null } : null,
    actual: { stops_completed: actual.stopsCompleted, stops_failed: actual.stopsFailed, distance_m: distance, finish_at: actual.finishAt?.toISOString() ?? null },
  };
}
