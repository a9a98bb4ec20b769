// ETAs of a tour's open stops (docs/api-guide.md "Live tracking") and the rule deciding when they moved enough to tell anyone.
import type { LatLng } from './geo.ts';

export interface EtaStop extends LatLng {
  id: string;
  timeWindowStartsAt: Date | null;
  serviceDurationSeconds: number;
}

/** A stop's ETA moves "enough" for the *.etas_recalculated events at this many seconds (docs/api-guide.md "Live tracking"). */
export const ETA_MOVE_THRESHOLD_SECONDS = 60;

/**
 * The route the ETAs follow: from the driver's current position through every open stop in tour order, or from
 * the first open stop when there is no position yet. `legs` of the result are the pairs to route.
 */
export function routePoints(origin: LatLng | null, stops: readonly EtaStop[]): LatLng[] {
  const points: LatLng[] = stops.map((s) => ({ lat: s.lat, lng: s.lng }));
  return origin ? [{ lat: origin.lat, lng: origin.lng }, ...points] : points;
}

/**
 * ETAs, stop by stop: travel the leg, wait for the time window to open (the driver is there, but the stop starts
 * then: the customer's ETA is when service begins), then spend the service duration before the next leg.
 * `legSeconds[i]` is the travel time of the i-th leg of routePoints(origin, stops).
 */
export function computeEtas(now: Date, hasOrigin: boolean, stops: readonly EtaStop[], legSeconds: readonly number[]): Map<string, Date> {
  const expectedLegs = hasOrigin ? stops.length : Math.max(0, stops.length - 1);
  if (legSeconds.length !== expectedLegs) throw new Error(`expected ${expectedLegs} legs, got ${legSeconds.length}`);
  const etas = new Map<string, Date>();
  let t = now.getTime();
  stops.forEach((stop, i) => {
    const leg = hasOrigin ? legSeconds[i] : i === 0 ? 0 : legSeconds[i - 1];
    t += Math.max(0, leg ?? 0) * 1000;
    if (stop.timeWindowStartsAt && stop.timeWindowStartsAt.getTime() > t) t = stop.timeWindowStartsAt.getTime();
    etas.set(stop.id, new Date(t));
    t += Math.max(0, stop.serviceDurationSeconds) * 1000;
  });
  return etas;
}

/** Whether any stop's ETA moved by ≥ 60 s; a stop without a previous ETA (a tour's first ETAs) counts as moved. */
export function etasMoved(previous: ReadonlyMap<string, Date | null>, next: ReadonlyMap<string, Date>, thresholdSeconds = ETA_MOVE_THRESHOLD_SECONDS): boolean {
  for (const [id, eta] of next) {
    const before = previous.get(id) ?? null;
    if (before === null) return true;
    if (Math.abs(eta.getTime() - before.getTime()) >= thresholdSeconds * 1000) return true;
  }
  return false;
}
