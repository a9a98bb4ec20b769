// What the driver sees is the server's tour with the actions still waiting on the device applied on top, so the next
// button appears at once with no connection. The server stays the authority: once an action is sent, its answer
// (refetched) replaces the projection.
import type { Schemas } from '../../api/index.ts';
import type { QueuedAction } from './outbox.ts';

type Tour = Schemas['Tour'];
type Stop = Schemas['Stop'];

export type ProjectedStop = Stop & { waiting: boolean };
export type ProjectedTour = Omit<Tour, 'stops'> & { stops: ProjectedStop[]; waiting: boolean };

const FINAL = new Set(['completed', 'failed', 'cancelled']);
const STOP_STEP: Partial<Record<QueuedAction['kind'], Stop['status']>> = { approach: 'approaching', arrive: 'arrived', complete: 'completed', fail: 'failed' };

export function projectTour(tour: Tour, actions: readonly QueuedAction[], driverId: string): ProjectedTour {
  let status = tour.status;
  let driver = tour.driver_id;
  let tourWaiting = false;
  const stops: ProjectedStop[] = [...(tour.stops ?? [])].sort((a, b) => (a.tour_position ?? 0) - (b.tour_position ?? 0)).map((s) => ({ ...s, waiting: false }));
  for (const action of actions) {
    if (action.tourId !== tour.id || action.state !== 'waiting') continue;
    if (action.kind === 'claim') {
      // A pickable tour is picked (straight to en route), a scheduled one claimed.
      status = status === 'pickable' ? 'en_route' : status === 'scheduled' ? 'claimed' : status;
      driver = driverId;
      tourWaiting = true;
      continue;
    }
    if (action.kind === 'start') {
      if (status === 'claimed') status = 'en_route';
      tourWaiting = true;
      continue;
    }
    const next = STOP_STEP[action.kind];
    const stop = stops.find((s) => s.id === action.stopId);
    if (!next || !stop || FINAL.has(stop.status)) continue;
    stop.status = next;
    stop.waiting = true;
    if (action.kind === 'complete' && stop.group) {
      // Completing a stop completes the open stops of its group on the tour (the stop driver flow, docs/api-guide.md).
      for (const other of stops) if (other.group === stop.group && !FINAL.has(other.status)) Object.assign(other, { status: 'completed', waiting: true });
    }
  }
  if (status === 'en_route' && stops.length && stops.every((s) => FINAL.has(s.status))) status = 'completed';
  return { ...tour, status, driver_id: driver, stops, waiting: tourWaiting };
}

/** The stop steps the server would take now (its driver flow: one stop or group under way at a time, tour en route). */
export function stopActions(tour: ProjectedTour, stop: ProjectedStop): { approach: boolean; arrive: boolean; complete: boolean; fail: boolean } {
  const none = { approach: false, arrive: false, complete: false, fail: false };
  if (tour.status !== 'en_route') return none;
  const busy = tour.stops.find((s) => s.id !== stop.id && (s.status === 'approaching' || s.status === 'arrived') && (!s.group || s.group !== stop.group));
  return {
    approach: stop.status === 'scheduled' && !busy,
    arrive: (stop.status === 'scheduled' && !busy) || stop.status === 'approaching',
    complete: stop.status === 'approaching' || stop.status === 'arrived',
    fail: stop.status === 'approaching' || stop.status === 'arrived',
  };
}
