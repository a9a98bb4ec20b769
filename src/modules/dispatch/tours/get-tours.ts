// Reading tours: one tour or the caller's visible tours, rendered with their stops.
import { earningsField } from '../legacy-earnings-field.ts';
import type { Deps } from '../../../deps.ts';
import type { Tx } from '../../../db/client.ts';
import type { Actor } from '../../../http/actor.ts';
import { badParameter } from '../../../http/errors.ts';
import { dispatchPermissions, tourListScope } from '../permissions.ts';
import { decodeCursor, toPage } from '../../../http/pagination.ts';
import { isUuid } from '../../../shared/ids.ts';
import { iso, isoOrNull } from '../../../shared/time.ts';
import { stopsRepository as stopsRepo } from '../stops/index.ts';
import { loadStopContext, type RenderDeps } from '../stops/index.ts';
import { toStopView } from '../stops/index.ts';
import { requireTour } from '../access.ts';
import * as repo from './repository.ts';
import type { TourListQueryT } from './schemas.ts';

export async function renderTour(q: Tx | Deps['db'], render: RenderDeps, actor: Actor, tour: repo.TourRow, view: 'standard' | 'compact' = 'standard') {
  const fields = {
    id: tour.id,
    service_id: tour.serviceId,
    service_area_id: tour.serviceAreaId,
    status: tour.status,
    driver_id: tour.driverId,
    executing_organization_id: tour.executingOrganizationId,
    scheduled_at: isoOrNull(tour.scheduledAt),
    claim_expires_at: isoOrNull(tour.claimExpiresAt),
    optimized: tour.optimized,
    label: tour.label,
    locked: tour.locked,
    managing_organization_ids: tour.managingOrganizationIds,
    preferred_driver_ids: tour.preferredDriverIds,
    ...earningsField(render.clock, actor, tour.earnings),
    created_at: iso(tour.createdAt),
    started_at: isoOrNull(tour.startedAt),
    completed_at: isoOrNull(tour.completedAt),
  };
  if (view === 'compact') return fields;
  const stops = await stopsRepo.findStopsOfTours(q, actor.tenantId, [tour.id]);
  const context = await loadStopContext(q, render, actor.tenantId, stops);
  return { ...fields, stops: stops.map((s) => toStopView(actor, s, context)) };
}

/** GET /api/hailing/tours: the caller's visible tours, newest first, history included (docs/api-guide.md "Who sees what"). */
export async function listTours(deps: Deps, actor: Actor, query: TourListQueryT) {
  dispatchPermissions.require(actor, 'list_tours');
  const limit = query.limit ?? 25;
  const [beforeId] = decodeCursor(query.cursor) ?? [null];
  if (beforeId !== null && (typeof beforeId !== 'string' || !isUuid(beforeId))) {
    throw badParameter('parameter_invalid', 'cursor', 'The cursor is not one this API issued.');
  }
  const rows = await repo.listTours(deps.db, actor.tenantId, {
    ...tourListScope(actor),
    ...(query.filters?.status ? { statuses: query.filters.status } : {}),
    ...(query.filters?.service_area_id ? { serviceAreaId: query.filters.service_area_id } : {}),
    beforeId,
    limit,
  });
  const page = toPage(rows, limit, (row) => [row.id]);
  const tours = [];
  for (const tour of page.items) tours.push(await renderTour(deps.db, deps, actor, tour, query.view ?? 'standard'));
  return { tours, meta: page.meta };
}

export async function getTour(deps: Deps, actor: Actor, id: string, view: 'standard' | 'compact' = 'standard') {
  return renderTour(deps.db, deps, actor, await requireTour(deps.db, actor, id), view);
}
