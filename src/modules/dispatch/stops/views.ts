// Stops as the caller sees them, mapped from rows and a loaded StopContext (render-stops.ts loads it): no queries here.
import { stillServed } from '../../../compat/http.ts';
import type { Actor } from '../../../http/actor.ts';
import type { Deps } from '../../../deps.ts';
import type { StopEta } from '../../../seams/index.ts';
import { iso, isoOrNull } from '../../../shared/time.ts';
import type { ServiceConfig } from '../../services/index.ts';
import { isFinalStop } from '../bookings/index.ts';
import type { TourRow } from '../tours/index.ts';
import { seesTour } from '../access.ts';
import type { FailureRules } from '../hooks.ts';
import type * as stopsRepo from './repository.ts';
import { proofView } from '../proof-files/index.ts';

export const isUnderWay = (stop: stopsRepo.StopRow): boolean => stop.tourId !== null && (stop.status === 'approaching' || stop.status === 'arrived');

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
  etas: Map<string, StopEta>;
}

/**
 * The seam with the failures module: failure_options are computed for all stops of one read from data already
 * loaded (no query per stop), and only where docs/api-guide.md "Bookings, stops and tours" lets them render.
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
    seesTour: seesTour(actor, tour),
  });
}

/** An open stop's ETA, if live tracking computed one on the tour the stop is on now, and the travel source of its times. */
function etaOf(stop: stopsRepo.StopRow, context: StopContext): { eta: Date | null; travelSource: StopEta['travelSource'] } {
  if (isFinalStop(stop.status)) return { eta: null, travelSource: null };
  const known = context.etas.get(stop.id);
  // The ETA kept on the stop row itself has no recorded source (decision 1702).
  return known && known.tourId === stop.tourId ? known : { eta: stop.eta, travelSource: null };
}

export function toStopView(actor: Actor, stop: stopsRepo.StopRow, context: StopContext) {
  const options = stopFailureOptions(actor, stop, context);
  const eta = etaOf(stop, context);
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
    // Only on a stop located from its address (contract §14): how it was found.
    ...(stop.geocoding ? { geocoding: stop.geocoding } : {}),
    group: stop.group,
    time_window:
      stop.timeWindowStartsAt && stop.timeWindowEndsAt ? { starts_at: iso(stop.timeWindowStartsAt), ends_at: iso(stop.timeWindowEndsAt) } : null,
    service_duration_seconds: stop.serviceDurationSeconds,
    notes: stop.notes,
    ...(stop.recipientInstructions ? { recipient_instructions: stop.recipientInstructions } : {}),
    ...(stop.requiredSkills?.length ? { required_skills: stop.requiredSkills } : {}),
    package_ids: context.packageIdsByStop.get(stop.id) ?? [],
    eta: isoOrNull(eta.eta),
    travel_source: eta.eta ? eta.travelSource : null,
    completed_at: isoOrNull(stop.completedAt),
    failed_at: isoOrNull(stop.failedAt),
    failure: stop.failure,
    recovery_of_stop_id: stop.recoveryOfStopId,
    recovery_kind: stop.recoveryKind,
    proof: stop.proof && proofView(stop.proof, (kind) => `/api/stops/${stop.id}/proof/${kind}`),
    // The one place the deprecated completion_requirements.fail goes once its sunset is enforced (docs/api-guide.md "Deprecations and removals").
    ...(stillServed(context, actor, 'completion_requirements.fail') ? { completion_requirements: { fail: context.failureRules.completionRequirementsFail(options) } } : {}),
    ...(options ? { failure_options: options } : {}),
  };
}
