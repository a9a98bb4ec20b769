// Applying a plan, with or without drivers: the selection read again under its bookings' locks, the proposed tours
// created (and, with drivers, force-assigned), and the settle (decisions 0958, 1301). One transaction, the caller's.
import type { Tx } from '../../../db/client.ts';
import type { Deps } from '../../../deps.ts';
import { recordEvents } from '../../../events/outbox.ts';
import type { Actor } from '../../../http/actor.ts';
import { AppError, conflict } from '../../../http/errors.ts';
import type { Messages } from '../../../http/i18n.ts';
import { getService, type ServiceConfig } from '../../services/index.ts';
import { bookingsRepository as bookingsRepo, type BookingRow } from '../bookings/index.ts';
import { packagesRepository as packagesRepo } from '../packages/index.ts';
import { bookingEventData, settle, tourEventData } from '../settle.ts';
import { stopsRepository as stopsRepo, type StopRow } from '../stops/index.ts';
import { toursRepository as toursRepo } from '../tours/index.ts';
import { createTour, layOutTour } from '../tours/merge-and-insert.ts';
import { recordTourPlan } from '../tour-plans.ts';
import { forceAssignPlannedTour } from '../tours/operations.ts';
import { inFreePositions } from './positions.ts';
import { isMovable } from './problem.ts';
import type { PlanInput } from './schemas.ts';

export const messages: Messages = {
  'planning.running_tour_changed': { en: 'The tour {tour_id} changed since the plan was made; plan again.', de: 'Die Tour {tour_id} änderte sich seit der Planung; bitte neu planen.' },
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

/**
 * What a plan proposed, in the terms apply needs: kept with a plan run as a job (dispatch_plans.proposal) so that
 * POST …/plans/{id}/apply creates exactly it (decision 1645), and built the same way by `apply: true`.
 */
export interface StoredProposal {
  /** The waiting stops that were planned (placed or not): apply refuses (409 plan_outdated) unless they still wait. */
  selected: string[];
  tours: StoredTour[];
}

export interface StoredTour {
  /** The tour's stops in the proposed order: a running tour's own open ones among them. */
  stop_ids: string[];
  /** With drivers: the shift's driver, force-assigned the new tour. */
  driver_id: string | null;
  /** With drivers: when the tour leaves (its scheduled_at); without, null (the bookings' own scheduled_at). */
  starts_at: string | null;
  /** What the plan promised, for planned against actual (decision 1744). */
  finish_at: string | null;
  distance_m: number | null;
  /** A driver's tour under way the plan re-planned (decision 1303), and its state then: apply refuses if it moved. */
  running: { tour_id: string; fingerprint: string } | null;
}

/** What a running tour's plan depends on: its state, driver and start, and each stop's state and position. */
export const fingerprint = (tour: toursRepo.TourRow, stops: readonly StopRow[]): string =>
  [tour.status, tour.driverId ?? '', tour.scheduledAt?.getTime() ?? '', String(tour.locked), ...[...stops].sort((a, b) => (a.tourPosition ?? 0) - (b.tourPosition ?? 0)).map((s) => `${s.id}:${s.status}:${s.tourPosition}`)].join('|');

const runningTourChanged = (tourId: string): AppError =>
  conflict('plan_outdated', { key: 'planning.running_tour_changed', params: { tour_id: tourId } }, { tour_id: tourId, changed: [{ stop_id: null, booking_id: null, change: 'tour_changed', tour_id: tourId }] });

/**
 * Applies a proposal in `tx`: the running tours locked first and refused (409 plan_outdated naming the tour) if any
 * changed since it was planned, then the selection under its bookings' locks (the lock order of every dispatch
 * write: tours, then bookings); the new tours are created (and force-assigned to their drivers), the stops planned
 * into running tours inserted into them, and everything settled (decisions 1301, 1303). The tour ids in proposal order.
 */
export async function applyProposal(tx: Tx, deps: Pick<Deps, 'hooks'>, actor: Actor, at: Date, input: PlanInput, proposal: StoredProposal, selectStops: SelectStops): Promise<string[]> {
  const tenantId = actor.tenantId;
  const runningIds = proposal.tours.flatMap((t) => (t.running ? [t.running.tour_id] : []));
  const locked = await toursRepo.findToursForUpdate(tx, tenantId, runningIds);
  const stopsNow = await stopsRepo.findStopsOfTours(tx, tenantId, runningIds);
  const running = new Map<string, { tour: toursRepo.TourRow; stops: StopRow[] }>();
  for (const t of proposal.tours) {
    if (!t.running) continue;
    const tour = locked.find((row) => row.id === t.running!.tour_id);
    const own = stopsNow.filter((s) => s.tourId === t.running!.tour_id);
    if (!tour || fingerprint(tour, own) !== t.running.fingerprint) throw runningTourChanged(t.running.tour_id);
    running.set(tour.id, { tour, stops: own });
  }
  const selection = await selectAgain(tx, actor, input, selectStops, proposal.selected.map((id) => ({ id })));
  const stopOf = (id: string): StopRow => {
    const stop = selection.byId.get(id) ?? stopsNow.find((s) => s.id === id);
    if (!stop) throw new Error(`planned stop ${id} is neither waiting nor on its running tour`);
    return stop;
  };
  const fresh = proposal.tours.filter((t) => !t.running);
  const scheduledAtOf = (stops: readonly StopRow[]) => selection.bookings.filter((b) => stops.some((s) => s.bookingId === b.id)).map((b) => b.scheduledAt).find((d) => d) ?? null;
  const created = await createPlannedTours(
    tx,
    actor,
    at,
    selection,
    fresh.map((t) => {
      const stops = t.stop_ids.map(stopOf);
      return {
        stops,
        scheduledAt: t.starts_at ? new Date(t.starts_at) : scheduledAtOf(stops),
        driverId: t.driver_id,
        promise: { distanceM: t.distance_m, finishAt: t.finish_at ? new Date(t.finish_at) : null },
      };
    }),
  );
  const changed: string[] = [];
  for (const t of proposal.tours) {
    const r = t.running ? running.get(t.running.tour_id)! : null;
    if (r && (await extendRunningTour(tx, actor, at, selection, r, t.stop_ids.map(stopOf)))) changed.push(r.tour.id);
  }
  await settleAppliedPlan(tx, deps, actor, at, selection, [...created, ...changed]);
  return proposal.tours.map((t) => t.running?.tour_id ?? created[fresh.indexOf(t)]!);
}

/**
 * Lays a locked running tour out with the planned order of its open stops and the plan's stops joining it: the stops
 * done or under way keep their positions, the others fill the remaining ones in the planned order (positions.ts), and
 * the tour is written as an insert writes (layOutTour) with tour.modified and booking.route_changed for the bookings
 * that joined or moved. False when nothing changes.
 */
async function extendRunningTour(tx: Tx, actor: Actor, at: Date, selection: Selection, r: { tour: toursRepo.TourRow; stops: StopRow[] }, planned: readonly StopRow[]): Promise<boolean> {
  const tenantId = actor.tenantId;
  const own = new Map(r.stops.map((s) => [s.id, s]));
  const added = planned.filter((s) => !own.has(s.id)).map((s) => selection.byId.get(s.id)!);
  const wanted = planned.map((s) => own.get(s.id) ?? selection.byId.get(s.id)!);
  const all = [...r.stops, ...added];
  const order = inFreePositions(all, await packagesRepo.findPackagesOfStops(tx, tenantId, all.map((s) => s.id)), wanted, (s) => !isMovable(s));
  // The planned order keeps every pickup before its drop-off, so a filling exists; if not, nothing is written.
  if (!order) throw runningTourChanged(r.tour.id);
  const moved = order.filter((s, i) => own.has(s.id) && s.tourPosition !== i);
  if (!added.length && !moved.length) return false;
  await layOutTour(tx, tenantId, r.tour.id, selection.service, order, at);
  await toursRepo.updateTour(tx, tenantId, r.tour.id, { optimized: true, updatedAt: at });
  const bookingIds = [...new Set([...added, ...moved].map((s) => s.bookingId).filter((id): id is string => !!id))].sort();
  const bookings = await bookingsRepo.findBookings(tx, tenantId, bookingIds);
  await recordEvents(tx, [
    { tenantId, actor, type: 'tour.modified', resourceId: r.tour.id, at, data: tourEventData(r.tour) },
    ...bookings.map((b) => ({ tenantId, actor, type: 'booking.route_changed' as const, resourceId: b.id, at, data: { ...bookingEventData(b), tour_id: r.tour.id } })),
  ]);
  return true;
}
