// Applying a plan, with or without drivers: the selection read again under its bookings' locks, the proposed tours
// created (and, with drivers, force-assigned), and the settle (decisions 0958, 1301). One transaction, the caller's.
import type { Tx } from '../../../db/client.ts';
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { AppError, conflict } from '../../../http/errors.ts';
import type { Messages } from '../../../http/i18n.ts';
import { getService, type ServiceConfig } from '../../services/index.ts';
import type { BookingRow } from '../bookings/index.ts';
import { settle } from '../settle.ts';
import { stopsRepository as stopsRepo, type StopRow } from '../stops/index.ts';
import { createTour } from '../tours/merge-and-insert.ts';
import { recordTourPlan } from '../tour-plans.ts';
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
  let picked: Awaited<ReturnType<SelectStops>>;
  try {
    picked = await selectStops(tx, actor, input);
  } catch (error) {
    // A planned stop cancelled or dispatched meanwhile makes the selection refuse (422): the plan is what is outdated.
    const changed = error instanceof AppError ? await changesSince(tx, actor.tenantId, selected, []) : [];
    if (changed.length) throw planOutdated(changed);
    throw error;
  }
  const { stops, bookings } = picked;
  const now = new Set(stops.map((s) => s.id));
  if (now.size !== selected.length || selected.some((s) => !now.has(s.id))) throw planOutdated(await changesSince(tx, actor.tenantId, selected, stops));
  const service = await getService(tx, actor.tenantId, bookings[0]!.serviceId);
  if (!service) throw new Error('booking without its service');
  return { stops, bookings, service, byId: new Map(stops.map((s) => [s.id, s])) };
}

/** One thing that changed since a plan was made, as 409 plan_outdated names it (docs/api-guide.md). */
export interface PlanChange {
  stop_id: string;
  booking_id: string | null;
  /** `cancelled`, `dispatched` (now on a tour), `failed`, `added` (waits now, not planned), or the stop's status. */
  change: string;
  tour_id: string | null;
}

/** What differs between the planned stops and the stops that wait now: each planned stop no longer waiting, each new one. */
async function changesSince(tx: Tx, tenantId: string, selected: readonly Pick<StopRow, 'id'>[], waitingNow: readonly StopRow[]): Promise<PlanChange[]> {
  const planned = new Set(selected.map((s) => s.id));
  const rows = await stopsRepo.findStops(tx, tenantId, [...planned]);
  const gone = rows
    .filter((s) => s.status !== 'to_be_dispatched')
    .map((s) => ({ stop_id: s.id, booking_id: s.bookingId, change: s.status === 'cancelled' || s.status === 'failed' ? s.status : s.tourId ? 'dispatched' : s.status, tour_id: s.tourId }));
  const added = waitingNow.filter((s) => !planned.has(s.id)).map((s) => ({ stop_id: s.id, booking_id: s.bookingId, change: 'added', tour_id: null }));
  return [...gone, ...added];
}

export const planOutdated = (changed: readonly PlanChange[]): AppError => conflict('plan_outdated', { key: 'planning.plan_outdated' }, { changed });

export interface PlannedTour {
  /** The stops in the proposed order (as selected; their rows are taken from the selection read under the locks). */
  stops: readonly Pick<StopRow, 'id' | 'bookingId'>[];
  scheduledAt: Date | null;
  /** With drivers: the shift's driver, who is force-assigned the tour (decision 1301). */
  driverId: string | null;
  /** What the plan promised, kept for planned against actual (tour_plans, decision 1744). */
  promise: { distanceM: number | null; finishAt: Date | null };
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
    await recordTourPlan(tx, { tenantId: actor.tenantId, tourId: id, stops: p.stops.length, distanceM: p.promise.distanceM, finishAt: p.promise.finishAt, appliedAt: at });
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
