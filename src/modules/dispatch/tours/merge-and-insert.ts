// Dispatch: putting booking stops into a new tour (merge, auto dispatch) or into an existing one (insert, move).
import type { Tx } from '../../../db/client.ts';
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { invalidFields, unknownReference, unprocessable, type FieldError } from '../../../http/errors.ts';
import type { Messages } from '../../../http/i18n.ts';
import { recordEvent, type EventActor } from '../../../events/outbox.ts';
import { newId } from '../../../shared/ids.ts';
import { requireBooking, requireDispatcher, requireTour } from '../access.ts';
import { bookingsRepository as bookingsRepo } from '../bookings/index.ts';
import { stopsRepository as stopsRepo } from '../stops/index.ts';
import { packagesRepository as packagesRepo } from '../packages/index.ts';
import { stopLimitReached } from '../stops/index.ts';
import { dropoffsBeforePickups } from '../stops/index.ts';
import { getService, type ServiceConfig } from '../../services/index.ts';
import { startingOverWhenToursChanged, ToursChangedMeanwhile } from '../start-over.ts';
import * as repo from './repository.ts';
import { bookingEventData, settle, tourEventData } from '../settle.ts';
import { isOpenTour } from './tour-machine.ts';
import { refuseBookingSplit } from './booking-split.ts';
import type { TourStatus } from '../tables.ts';
import type { InsertStopsInput, MergeInput } from './schemas.ts';
import { getTour } from './get-tours.ts';
import { MERGE_OPTIMIZE_TIME_LIMIT_MS, optimizedOrder, type Optimization } from '../planning/index.ts';
import { INLINE_SOLVER } from '../../../optimizer/index.ts';

export const messages: Messages = {
  'dispatch.failed_stops': { en: 'Failed stops cannot be dispatched.', de: 'Fehlgeschlagene Stopps können nicht disponiert werden.' },
  'dispatch.not_dispatchable': { en: 'Some stops cannot be dispatched in their current state.', de: 'Einige Stopps können in ihrem aktuellen Zustand nicht disponiert werden.' },
  'dispatch.mixed_services': { en: 'All stops of a tour belong to one tour service.', de: 'Alle Stopps einer Tour gehören zu einem Service.' },
  'dispatch.pickup_after_dropoff': { en: 'A pickup must come before its drop-off on a tour.', de: 'Eine Abholung muss auf einer Tour vor ihrer Zustellung liegen.' },
  'dispatch.tour_closed': { en: 'Stops can only be added to an open tour.', de: 'Stopps können nur zu einer offenen Tour hinzugefügt werden.' },
};

/** Where the client named the stop at `index` of the stop ids: `/stop_ids/i`, or the `/booking_ids/j` it came from. */
type PointerOf = (index: number) => string;

const stopErrors = (pointerOf: PointerOf, ids: string[], all: string[], code: string, detail: string): FieldError[] =>
  ids.map((id) => ({ pointer: pointerOf(all.indexOf(id)), code, detail, stop_id: id }) as FieldError);

/**
 * The stops a dispatcher names, each visible through its booking; any other id is a 422 unknown_reference. Their
 * bookings are locked first and the stops read again under those locks: every writer of a stop's tour and status
 * holds its booking, so a concurrent merge or cancel that committed meanwhile is seen, never overwritten.
 */
export async function loadDispatchableStops(tx: Tx, actor: Actor, stopIds: string[], pointerOf: PointerOf, movableFromTour: boolean) {
  const preview = await stopsRepo.findStops(tx, actor.tenantId, stopIds);
  const bookingIds = [...new Set(preview.map((s) => s.bookingId).filter((id): id is string => !!id))];
  const bookings = new Map((await bookingsRepo.findBookingsForUpdate(tx, actor.tenantId, bookingIds)).map((b) => [b.id, b]));
  const stops = await stopsRepo.findStops(tx, actor.tenantId, stopIds);
  const byId = new Map(stops.map((s) => [s.id, s]));
  for (const [i, id] of stopIds.entries()) {
    const stop = byId.get(id);
    if (!stop) throw unknownReference(pointerOf(i), 'stop');
    await requireBooking(tx, actor, { loaded: stop.bookingId ? bookings.get(stop.bookingId) : undefined }, { otherwise: () => unknownReference(pointerOf(i), 'stop') });
  }
  const ordered = stopIds.map((id) => byId.get(id)!);
  const failed = ordered.filter((s) => s.status === 'failed').map((s) => s.id);
  if (failed.length) {
    throw unprocessable('failed_stops', { key: 'dispatch.failed_stops' }, stopErrors(pointerOf, failed, stopIds, 'failed_stop', 'is failed'), { stop_ids: failed });
  }
  const allowed = movableFromTour ? ['to_be_dispatched', 'scheduled'] : ['to_be_dispatched'];
  const stuck = ordered.filter((s) => !allowed.includes(s.status)).map((s) => s.id);
  if (stuck.length) {
    throw unprocessable('stops_not_dispatchable', { key: 'dispatch.not_dispatchable' }, stopErrors(pointerOf, stuck, stopIds, 'not_dispatchable', 'is not waiting for dispatch'));
  }
  const serviceIds = new Set([...bookings.values()].map((b) => b.serviceId));
  if (serviceIds.size > 1) throw unprocessable('mixed_services', { key: 'dispatch.mixed_services' });
  return { stops: ordered, bookings: [...bookings.values()] };
}

/** Puts `orderedIds` on the tour at positions 0…n-1; stops arriving from elsewhere become `scheduled`. */
async function layOut(tx: Tx, tenantId: string, tourId: string, ordered: stopsRepo.StopRow[], at: Date): Promise<void> {
  for (const [i, stop] of ordered.entries()) {
    if (stop.tourId === tourId && stop.tourPosition === i) continue;
    await stopsRepo.updateStop(tx, tenantId, stop.id, {
      tourId,
      tourPosition: i,
      status: stop.status === 'to_be_dispatched' ? 'scheduled' : stop.status,
      updatedAt: at,
    });
  }
}

function checkOrder(ordered: stopsRepo.StopRow[], links: packagesRepo.PackageRow[]): void {
  const bad = dropoffsBeforePickups(ordered, links);
  if (bad.length) {
    throw unprocessable(
      'pickup_after_dropoff',
      { key: 'dispatch.pickup_after_dropoff' },
      bad.map((id) => ({ pointer: '/stop_ids', code: 'pickup_after_dropoff', detail: `stop ${id} comes before its pickup` })),
    );
  }
}

/**
 * Lays a tour the caller holds locked out as `ordered` (its stops, and waiting stops whose bookings the caller locked,
 * which become scheduled) after the checks of every dispatch into a tour: the service's stop limit, each pickup before
 * its drop-off. Insert and a re-planned running tour (decision 1303) write through it; the caller records the events.
 */
export async function layOutTour(tx: Tx, tenantId: string, tourId: string, service: ServiceConfig, ordered: stopsRepo.StopRow[], at: Date): Promise<void> {
  if (ordered.filter((s) => s.status !== 'cancelled').length > service.maxStopsPerTour) throw stopLimitReached(service.maxStopsPerTour, 'tour');
  checkOrder(ordered, await packagesRepo.findPackagesOfStops(tx, tenantId, ordered.map((s) => s.id)));
  await layOut(tx, tenantId, tourId, ordered, at);
}

export interface NewTour {
  service: ServiceConfig;
  status: TourStatus;
  scheduledAt: Date | null;
  optimized: boolean;
  bookings: bookingsRepo.BookingRow[];
  stops: stopsRepo.StopRow[];
}

/** Creates a tour holding `stops` in order, with tour.created; the caller settles. */
export async function createTour(tx: Tx, tenantId: string, actor: EventActor, at: Date, input: NewTour): Promise<string> {
  if (input.stops.length > input.service.maxStopsPerTour) throw stopLimitReached(input.service.maxStopsPerTour, 'tour');
  checkOrder(input.stops, await packagesRepo.findPackagesOfStops(tx, tenantId, input.stops.map((s) => s.id)));
  const id = newId();
  await repo.insertTour(tx, {
    tenantId,
    id,
    serviceId: input.service.id,
    serviceAreaId: input.service.serviceAreaId,
    status: input.status,
    scheduledAt: input.scheduledAt,
    optimized: input.optimized,
    preferredDriverIds: [...new Set(input.bookings.flatMap((b) => b.preferredDriverIds))],
    managingOrganizationIds: [...new Set(input.bookings.flatMap((b) => b.managingOrganizationIds))].sort(),
    createdAt: at,
    updatedAt: at,
  });
  await layOut(tx, tenantId, id, input.stops, at);
  await recordEvent(tx, {
    tenantId,
    actor,
    type: 'tour.created',
    resourceId: id,
    at,
    data: { ...tourEventData({ id, serviceAreaId: input.service.serviceAreaId }), status: input.status, dispatched_booking_ids: input.bookings.map((b) => b.id).sort() },
  });
  for (const booking of input.bookings) {
    await recordEvent(tx, { tenantId, actor, type: 'booking.route_changed', resourceId: booking.id, at, data: { ...bookingEventData(booking), tour_id: id } });
  }
  return id;
}

/** What a merge takes: the named stops (or the named bookings' waiting stops), locked, in booking order. */
async function selectForMerge(tx: Tx, actor: Actor, input: MergeInput) {
  let stopIds: string[];
  let pointerOf: PointerOf;
  if ('stop_ids' in input) {
    stopIds = input.stop_ids;
    pointerOf = (i) => `/stop_ids/${i}`;
  } else {
    // Locked before their stops are read, so ten concurrent merges of one booking dispatch it once.
    const bookings = await bookingsRepo.findBookingsForUpdate(tx, actor.tenantId, input.booking_ids);
    for (const [i, id] of input.booking_ids.entries()) {
      await requireBooking(tx, actor, { loaded: bookings.find((b) => b.id === id) }, { otherwise: () => unknownReference(`/booking_ids/${i}`, 'booking') });
    }
    const all = await stopsRepo.findStopsOfBookings(tx, actor.tenantId, input.booking_ids);
    const ordered = input.booking_ids.flatMap((id) => all.filter((s) => s.bookingId === id));
    // Only what awaits dispatch: a failed stop stays on the tour it failed on, and its recovery stop (if any)
    // is the booking's stop to dispatch now. Naming a failed stop in stop_ids is the 422 failed_stops case.
    const waiting = ordered.filter((s) => s.status === 'to_be_dispatched');
    if (!waiting.length) throw invalidFields([{ pointer: '/booking_ids', code: 'nothing_to_dispatch', detail: 'no stop of these bookings waits for dispatch' }]);
    stopIds = waiting.map((s) => s.id);
    const bookingIds = input.booking_ids;
    pointerOf = (i) => `/booking_ids/${bookingIds.indexOf(waiting[i]!.bookingId!)}`;
  }
  const { stops, bookings } = await loadDispatchableStops(tx, actor, stopIds, pointerOf, false);
  const service = await getService(tx, actor.tenantId, bookings[0]!.serviceId);
  if (!service) throw new Error('booking without its service');
  // Stops keep their booking order, so a booking's pickups stay ahead of its drop-offs.
  const ordered = [...stops].sort((a, b) => (a.bookingId === b.bookingId ? a.position - b.position : 0));
  const scheduledAt = input.scheduled_at ? new Date(input.scheduled_at) : (bookings.map((b) => b.scheduledAt).find((d) => d) ?? null);
  return { bookings, service, ordered, scheduledAt, tour: { id: '', serviceAreaId: service.serviceAreaId, status: 'to_be_dispatched' as const, scheduledAt } };
}

/** What a searched order depends on: which stops, each as last written. */
const selectionOf = (stops: readonly stopsRepo.StopRow[]): string => stops.map((s) => `${s.id}:${s.updatedAt.getTime()}`).join('|');

/** POST /api/hailing/bookings/merge: the named stops (or every waiting stop of the named bookings) into a new tour. */
export async function dispatchIntoNewTour(deps: Deps, actor: Actor, input: MergeInput) {
  requireDispatcher(actor);
  const at = deps.clock.now();
  // `optimize: true` (decision 0958): the search runs before the merge's locks are taken, on a solver thread, from a
  // short locked read of the selection (which also answers every validation error early); the merge then uses that
  // order if its selection is unchanged, and searches briefly on this thread otherwise (decision 0962).
  const searched = input.optimize
    ? await (async () => {
        const preview = await deps.db.transaction((tx) => selectForMerge(tx, actor, input));
        const { order, optimization } = await optimizedOrder(deps, deps.db, actor.tenantId, preview.tour, preview.ordered, MERGE_OPTIMIZE_TIME_LIMIT_MS);
        return { selection: selectionOf(preview.ordered), orderIds: order.map((s) => s.id), optimization };
      })()
    : null;
  let optimization: Optimization | undefined;
  const tourId = await deps.db.transaction(async (tx) => {
    const { bookings, service, ordered, scheduledAt, tour } = await selectForMerge(tx, actor, input);
    let order = ordered;
    if (searched && searched.selection === selectionOf(ordered)) {
      const byId = new Map(ordered.map((s) => [s.id, s]));
      order = searched.orderIds.map((id) => byId.get(id)!);
      optimization = searched.optimization;
    } else if (searched) {
      // The selection changed while the solver ran: a short search on this thread, under the locks.
      const again = await optimizedOrder({ ...deps, optimizer: INLINE_SOLVER }, tx, actor.tenantId, tour, ordered, MERGE_OPTIMIZE_TIME_LIMIT_MS);
      order = again.order;
      optimization = again.optimization;
    }
    await refuseBookingSplit(tx, actor.tenantId, null, order);
    const tourId = await createTour(tx, actor.tenantId, actor, at, { service, status: 'to_be_dispatched', scheduledAt, optimized: searched !== null, bookings, stops: order });
    await settle(tx, deps.hooks.dispatch, {
      tenantId: actor.tenantId,
      actor,
      at,
      bookingIds: bookings.map((b) => b.id),
      tourIds: [tourId],
      event: 'dispatch',
    });
    return tourId;
  });
  return { tour: await getTour(deps, actor, tourId), ...(optimization ? { optimization } : {}) };
}

/** Locks the tour (404 unless the caller sees it) and checks it can take stops. */
export async function openTourForUpdate(tx: Tx, actor: Actor, tourId: string): Promise<repo.TourRow> {
  const tour = await requireTour(tx, actor, tourId, { forUpdate: true });
  if (!isOpenTour(tour.status)) throw unprocessable('tour_closed', { key: 'dispatch.tour_closed' });
  return tour;
}

/** Renumbers a tour's stops 0…n-1 in their current order (after stops left it). */
export async function compactTour(tx: Tx, tenantId: string, tourId: string, at: Date): Promise<void> {
  const stops = (await stopsRepo.findStopsOfTours(tx, tenantId, [tourId])).filter((s) => s.tourId === tourId);
  await layOut(tx, tenantId, tourId, stops, at);
}

/** The open stops of the named bookings that may move (waiting or scheduled), in booking order. */
const movableStopsOf = (stops: readonly stopsRepo.StopRow[], bookingIds: readonly string[]): stopsRepo.StopRow[] =>
  bookingIds.flatMap((id) => stops.filter((s) => s.bookingId === id && (s.status === 'to_be_dispatched' || s.status === 'scheduled')).sort((a, b) => a.position - b.position));

/**
 * `booking_ids` names every movable stop of the bookings (decision 1640): they are read without a lock first to
 * find the tours to lock, then again under the bookings' locks; a set that changed meanwhile starts over.
 */
async function previewInsertedStops(tx: Tx, tenantId: string, input: InsertStopsInput): Promise<string[]> {
  if ('stop_ids' in input) return input.stop_ids;
  return movableStopsOf(await stopsRepo.findStopsOfBookings(tx, tenantId, input.booking_ids), input.booking_ids).map((s) => s.id);
}

async function lockNamedBookings(tx: Tx, actor: Actor, bookingIds: readonly string[], previewed: readonly string[]): Promise<void> {
  const locked = await bookingsRepo.findBookingsForUpdate(tx, actor.tenantId, [...bookingIds]);
  for (const [i, id] of bookingIds.entries()) {
    await requireBooking(tx, actor, { loaded: locked.find((b) => b.id === id) }, { otherwise: () => unknownReference(`/booking_ids/${i}`, 'booking') });
  }
  const movable = movableStopsOf(await stopsRepo.findStopsOfBookings(tx, actor.tenantId, [...bookingIds]), bookingIds).map((s) => s.id);
  if (movable.join() !== previewed.join()) throw new ToursChangedMeanwhile();
  if (!movable.length) throw invalidFields([{ pointer: '/booking_ids', code: 'nothing_to_dispatch', detail: 'no stop of these bookings waits for dispatch or is scheduled' }]);
}

/**
 * POST /api/hailing/tours/{id}/stops/insert: dispatches waiting stops into the tour or moves scheduled stops; with
 * `booking_ids`, every open stop of those bookings. A package whose other stop stays on another tour → 409
 * booking_split (decision 1640).
 */
export async function insertStopsIntoTour(deps: Deps, actor: Actor, tourId: string, input: InsertStopsInput) {
  requireDispatcher(actor);
  const at = deps.clock.now();
  await startingOverWhenToursChanged(() => deps.db.transaction(async (tx) => {
    // Lock order everywhere: tours (by id), then bookings (by id); the source tours of moved stops are locked too.
    const stopIds = await previewInsertedStops(tx, actor.tenantId, input);
    const preview = await stopsRepo.findStops(tx, actor.tenantId, stopIds);
    const sourceTourIds = [...new Set(preview.map((s) => s.tourId).filter((id): id is string => !!id && id !== tourId))];
    const tourLocks = await repo.findToursForUpdate(tx, actor.tenantId, [...new Set([tourId, ...sourceTourIds])]);
    const tour = await requireTour(tx, actor, { loaded: tourLocks.find((t) => t.id === tourId) });
    if (!isOpenTour(tour.status)) throw unprocessable('tour_closed', { key: 'dispatch.tour_closed' });
    if ('booking_ids' in input) await lockNamedBookings(tx, actor, input.booking_ids, stopIds);
    const pointerOf: PointerOf = 'booking_ids' in input
      ? (i) => `/booking_ids/${input.booking_ids.indexOf(preview.find((s) => s.id === stopIds[i])?.bookingId ?? '')}`
      : (i) => `/stop_ids/${i}`;
    const { stops, bookings } = await loadDispatchableStops(tx, actor, stopIds, pointerOf, true);
    // A stop dispatched into another tour after the preview sits on a tour this transaction does not hold.
    if (stops.some((s) => s.tourId && s.tourId !== tourId && !sourceTourIds.includes(s.tourId))) throw new ToursChangedMeanwhile();
    if (bookings[0] && bookings[0].serviceId !== tour.serviceId) throw unprocessable('mixed_services', { key: 'dispatch.mixed_services' });
    await refuseBookingSplit(tx, actor.tenantId, tourId, stops);
    const service = await getService(tx, actor.tenantId, tour.serviceId);
    if (!service) throw new Error('tour without its service');
    const moving = new Set(stops.map((s) => s.id));
    const staying = (await stopsRepo.findStopsOfTours(tx, actor.tenantId, [tourId])).filter((s) => !moving.has(s.id));
    const position = Math.min(input.position ?? staying.length, staying.length);
    const ordered = [...staying.slice(0, position), ...stops, ...staying.slice(position)];
    const affected = [...new Set([...ordered, ...stops].map((s) => s.bookingId).filter((id): id is string => !!id))];
    await layOutTour(tx, actor.tenantId, tourId, service, ordered, at);
    for (const sourceId of sourceTourIds) {
      await compactTour(tx, actor.tenantId, sourceId, at);
      const source = tourLocks.find((t) => t.id === sourceId);
      if (source) await recordEvent(tx, { tenantId: actor.tenantId, actor, type: 'tour.modified', resourceId: sourceId, at, data: tourEventData(source) });
    }
    await recordEvent(tx, { tenantId: actor.tenantId, actor, type: 'tour.modified', resourceId: tourId, at, data: tourEventData(tour) });
    for (const booking of bookings) {
      await recordEvent(tx, { tenantId: actor.tenantId, actor, type: 'booking.route_changed', resourceId: booking.id, at, data: { ...bookingEventData(booking), tour_id: tourId } });
    }
    await settle(tx, deps.hooks.dispatch, { tenantId: actor.tenantId, actor, at, bookingIds: affected, tourIds: [tourId, ...sourceTourIds], event: 'dispatch' });
  }));
  return getTour(deps, actor, tourId);
}
