// Applying a plan, with or without drivers: the selection read again under its bookings' locks, the proposed tours
// created (and, with drivers, force-assigned), and the settle (decisions 0958, 1301). One transaction, the caller's.
import type { Tx } from '../../../db/client.ts';
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { conflict } from '../../../http/errors.ts';
import type { Messages } from '../../../http/i18n.ts';
import { getService, type ServiceConfig } from '../../services/index.ts';
import type { BookingRow } from '../bookings/index.ts';
import { settle } from '../settle.ts';
import type { StopRow } from '../stops/index.ts';
import { createTour } from '../tours/merge-and-insert.ts';
import { forceAssignPlannedTour } from '../tours/operations.ts';
import type { PlanInput } from './schemas.ts';

export const messages: Messages = {
  'planning.plan_outdated': { en: 'The stops to plan changed since the plan was made; plan again.', de: 'Die zu planenden Stopps änderten sich seit der Planung; bitte neu planen.' },
};

/** The waiting stops a plan's body names, their bookings locked by `tx` (plan-tours.ts `selectStops`). */
export type SelectStops = (tx: Tx, actor: Actor, input: PlanInput) => Promise<{ stops: StopRow[]; bookings: BookingRow[] }>;

export interface Selection {
  stops: StopRow[];
  bookings: BookingRow[];
  service: ServiceConfig;
  byId: Map<string, StopRow>;
}

/**
 * The plan's stops again, under their bookings' locks, as merge takes them: a concurrent merge of the same stops either
 * committed (seen here: 409 plan_outdated, when `selected` — what was planned — is not what waits now) or waits.
 */
export async function selectAgain(tx: Tx, actor: Actor, input: PlanInput, selectStops: SelectStops, selected: readonly Pick<StopRow, 'id'>[]): Promise<Selection> {
  const { stops, bookings } = await selectStops(tx, actor, input);
  const now = new Set(stops.map((s) => s.id));
  if (now.size !== selected.length || selected.some((s) => !now.has(s.id))) throw conflict('plan_outdated', { key: 'planning.plan_outdated' });
  const service = await getService(tx, actor.tenantId, bookings[0]!.serviceId);
  if (!service) throw new Error('booking without its service');
  return { stops, bookings, service, byId: new Map(stops.map((s) => [s.id, s])) };
}

export interface PlannedTour {
  /** The stops in the proposed order (as selected; their rows are taken from the selection read under the locks). */
  stops: readonly Pick<StopRow, 'id' | 'bookingId'>[];
  scheduledAt: Date | null;
  /** With drivers: the shift's driver, who is force-assigned the tour (decision 1301). */
  driverId: string | null;
}

/** Creates each planned tour in `tx`, in order, with tour.created (and force-assigned to its driver): the new tours' ids. */
export async function createPlannedTours(tx: Tx, actor: Actor, at: Date, selection: Selection, planned: readonly PlannedTour[]): Promise<string[]> {
  const ids: string[] = [];
  for (const p of planned) {
    const ofTour = selection.bookings.filter((b) => p.stops.some((s) => s.bookingId === b.id));
    const id = await createTour(tx, actor.tenantId, actor, at, {
      service: selection.service,
      status: 'to_be_dispatched',
      scheduledAt: p.scheduledAt,
      optimized: true,
      bookings: ofTour,
      stops: p.stops.map((s) => selection.byId.get(s.id)!),
    });
    if (p.driverId) await forceAssignPlannedTour(tx, actor.tenantId, at, id, p.driverId, actor);
    ids.push(id);
  }
  return ids;
}

/** The settle after a plan is applied: the selected bookings, and every tour that got stops. */
export async function settleAppliedPlan(tx: Tx, deps: Pick<Deps, 'hooks'>, actor: Actor, at: Date, selection: Selection, tourIds: readonly string[]): Promise<void> {
  await settle(tx, deps.hooks.dispatch, {
    tenantId: actor.tenantId,
    actor,
    at,
    bookingIds: selection.bookings.map((b) => b.id),
    tourIds: [...tourIds],
    event: 'dispatch',
  });
}
