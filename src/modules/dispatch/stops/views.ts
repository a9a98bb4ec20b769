// Rendering stops for a caller: everything a read needs is loaded once, then mapped (failure_options included).
import { stillServed } from '../../../compat/http.ts';
import type { Queryable } from '../../../db/client.ts';
import type { Actor } from '../../../http/actor.ts';
import type { Deps } from '../../../deps.ts';
import { iso, isoOrNull } from '../../../shared/time.ts';
import { getService, type ServiceConfig } from '../../services/index.ts';
import { isFinalStop } from '../bookings/booking-status.ts';
import { tourFacts } from '../settle.ts';
import { findTours, type TourRow } from '../tours/repository.ts';
import { canSeeTour } from '../visibility.ts';
import type { FailureRules } from '../hooks.ts';
import * as stopsRepo from './repository.ts';
import * as packagesRepo from '../packages/repository.ts';

const isUnderWay = (stop: stopsRepo.StopRow): boolean => stop.tourId !== null && (stop.status === 'approaching' || stop.status === 'arrived');

/** What rendering stops needs besides the stops: their tours, all stops of those tours and bookings, services. */
export interface StopContext {
  tours: Map<string, TourRow>;
  tourStopCounts: Map<string, number>;
  bookingStops: Map<string, stopsRepo.StopRow[]>;
  services: Map<string, ServiceConfig>;
  packageIdsByStop: Map<string, string[]>;
  /** Deprecated stop fields are served or dropped against this clock (their sunset dates). */
  clock: Deps['clock'];
  failureRules: FailureRules;
  /** ETAs of open tour stops, from live tracking (Deps.hooks.dispatch.stopEtas), with the tour each was computed on. */
  etas: Map<string, { tourId: string; eta: Date }>;
}

/** What rendering stops needs of Deps: the clock (sunset dates) and the failures module's rules (failure_options). */
export type RenderDeps = Pick<Deps, 'clock' | 'hooks'>;

/** Rows the caller already holds are passed in `known` and not read again. */
export async function loadStopContext(
  q: Queryable,
  render: RenderDeps,
  tenantId: string,
  stops: stopsRepo.StopRow[],
  known: { bookingStops?: stopsRepo.StopRow[]; packages?: packagesRepo.PackageRow[] } = {},
): Promise<StopContext> {
  // failure_options render only on tour stops under way: only their tours and services are read.
  const tourIds = [...new Set(stops.filter(isUnderWay).map((s) => s.tourId).filter((id): id is string => id !== null))];
  const bookingIds = [...new Set(stops.filter(isUnderWay).map((s) => s.bookingId).filter((id): id is string => id !== null))];
  // One after the other: inside a transaction `q` is a single connection, which must not run two queries at once.
  const tours = await findTours(q, tenantId, tourIds);
  const tourStops = await stopsRepo.findStopsOfTours(q, tenantId, tourIds);
  const bookingStops = known.bookingStops ?? (await stopsRepo.findStopsOfBookings(q, tenantId, bookingIds));
  const packages = known.packages ?? (await packagesRepo.findPackagesOfStops(q, tenantId, stops.map((s) => s.id)));
  const services = new Map<string, ServiceConfig>();
  for (const id of new Set(tours.map((t) => t.serviceId))) {
    const service = await getService(q, tenantId, id);
    if (service) services.set(service.id, service);
  }
  const tourStopCounts = new Map<string, number>();
  for (const s of tourStops) if (s.tourId && s.status !== 'cancelled') tourStopCounts.set(s.tourId, (tourStopCounts.get(s.tourId) ?? 0) + 1);
  const byBooking = new Map<string, stopsRepo.StopRow[]>();
  for (const s of bookingStops) if (s.bookingId) byBooking.set(s.bookingId, [...(byBooking.get(s.bookingId) ?? []), s]);
  const packageIdsByStop = new Map<string, string[]>();
  for (const p of packages) {
    for (const stopId of [p.pickupStopId, p.dropoffStopId]) packageIdsByStop.set(stopId, [...(packageIdsByStop.get(stopId) ?? []), p.id]);
  }
  const etaStopIds = stops.filter((s) => s.tourId !== null && !isFinalStop(s.status)).map((s) => s.id);
  const etas = etaStopIds.length ? await render.hooks.dispatch.stopEtas(q, tenantId, etaStopIds) : new Map<string, { tourId: string; eta: Date }>();
  return {
    etas,
    tours: new Map(tours.map((t) => [t.id, t])),
    tourStopCounts,
    bookingStops: byBooking,
    services,
    packageIdsByStop,
    clock: render.clock,
    failureRules: render.hooks.failureRules,
  };
}

/**
 * The seam with the failures module: failure_options are computed for all stops of one read from data already
 * loaded (no query per stop), and only where SPEC.md lets them render.
 */
function stopFailureOptions(actor: Actor, stop: stopsRepo.StopRow, context: StopContext) {
  const tour = stop.tourId ? context.tours.get(stop.tourId) ?? null : null;
  const service = tour ? context.services.get(tour.serviceId) : undefined;
  if (!isUnderWay(stop) || !tour || !service) return null;
  return context.failureRules.stopFailureOptions(actor, {
    stop,
    tour,
    bookingStops: stop.bookingId ? context.bookingStops.get(stop.bookingId) ?? [] : null,
    tourStopCount: context.tourStopCounts.get(tour.id) ?? 0,
    service,
    seesTour: canSeeTour(actor, tourFacts(tour)),
  });
}

/** An open stop's ETA, if live tracking computed one on the tour the stop is on now. */
function etaOf(stop: stopsRepo.StopRow, context: StopContext): Date | null {
  if (isFinalStop(stop.status)) return null;
  const known = context.etas.get(stop.id);
  return known && known.tourId === stop.tourId ? known.eta : stop.eta;
}

export function toStopView(actor: Actor, stop: stopsRepo.StopRow, context: StopContext) {
  const options = stopFailureOptions(actor, stop, context);
  return {
    id: stop.id,
    booking_id: stop.bookingId,
    tour_id: stop.tourId,
    type: stop.type,
    status: stop.status,
    position: stop.position,
    tour_position: stop.tourPosition,
    place_id: stop.placeId,
    location: { lat: stop.lat, lng: stop.lng },
    address: stop.address,
    contact: stop.contact,
    group: stop.group,
    time_window:
      stop.timeWindowStartsAt && stop.timeWindowEndsAt ? { starts_at: iso(stop.timeWindowStartsAt), ends_at: iso(stop.timeWindowEndsAt) } : null,
    service_duration_seconds: stop.serviceDurationSeconds,
    notes: stop.notes,
    package_ids: context.packageIdsByStop.get(stop.id) ?? [],
    eta: isoOrNull(etaOf(stop, context)),
    completed_at: isoOrNull(stop.completedAt),
    failed_at: isoOrNull(stop.failedAt),
    failure: stop.failure,
    recovery_of_stop_id: stop.recoveryOfStopId,
    recovery_kind: stop.recoveryKind,
    proof: stop.proof,
    // The one place the deprecated completion_requirements.fail goes once its sunset is enforced (SPEC.md Versioning).
    ...(stillServed(context, actor, 'completion_requirements.fail') ? { completion_requirements: { fail: context.failureRules.completionRequirementsFail(options) } } : {}),
    ...(options ? { failure_options: options } : {}),
  };
}

export async function renderStop(q: Queryable, render: RenderDeps, actor: Actor, stop: stopsRepo.StopRow) {
  return toStopView(actor, stop, await loadStopContext(q, render, actor.tenantId, [stop]));
}
