// The app's one outbox: kept in IndexedDB, flushed when an action is taken, when the browser says it is online again,
// when the service answers again, and at each backoff deadline.
import type { Query } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import type { Schemas } from '../../api/index.ts';
import { connection } from '../../api/connection.ts';
import { queryClient } from '../../api/query-client.ts';
import { idbStore, openDatabase } from './idb-store.ts';
import { Outbox, type ActionKind, type NotKept, type QueuedAction } from './outbox.ts';
import { projectTour } from './project.ts';
import { sendAction } from './send.ts';

const newKey = (): string => `driver-${crypto.randomUUID()}`;

type Tour = Schemas['Tour'];
type Stop = Schemas['Stop'];

/**
 * The server's answer to a sent action goes into the cached tour at once (a stop step answers the stop, a tour action
 * the tour; a completion also completes the open stops of the stop's group, as the server does): the screen keeps
 * the step between the action leaving the outbox and the refetch after the queue, instead of showing the old state
 * for a moment — where a driver could tap the same step twice (decision 1208).
 */
function keepAnswer(action: QueuedAction, body: unknown): void {
  const answer = (body && typeof body === 'object' ? body : {}) as { tour?: Tour; stop?: Stop };
  const update = (tour: Tour): Tour => {
    if (tour.id !== action.tourId) return tour;
    if (answer.tour?.id === tour.id) return { ...tour, ...answer.tour, stops: answer.tour.stops ?? tour.stops };
    const stop = answer.stop;
    if (!stop || !tour.stops?.some((s) => s.id === stop.id)) return tour;
    const done = action.kind === 'complete' && stop.group ? projectTour(tour, [{ ...action, state: 'waiting' }], tour.driver_id ?? '').stops : [];
    const status = new Map(done.map((s) => [s.id, s.status]));
    return { ...tour, stops: tour.stops.map((s) => (s.id === stop.id ? { ...s, ...stop } : { ...s, status: status.get(s.id) ?? s.status })) };
  };
  queryClient.setQueriesData<Tour>({ queryKey: ['driver', 'tour', action.tourId] }, (tour) => tour && update(tour));
  queryClient.setQueriesData<Tour[]>({ queryKey: ['driver', 'tours', 'open'] }, (tours) => tours?.map(update));
}

export const outbox = new Outbox(idbStore(openDatabase('tourbook-driver')), sendAction, { now: () => Date.now(), newKey }, keepAnswer);

/** What a sent action can change: tours, their stops (failure options follow the stop's state), pay. Not bookings' packages nor reasons. */
const changedByActions = (query: Query): boolean => !['booking', 'reasons'].includes(String(query.queryKey[1]));

let timer: ReturnType<typeof setTimeout> | null = null;

/** Flushes now and plans the next try; refetches the driver's data once something went through. */
export async function flushOutbox(force = false): Promise<void> {
  if (timer) {
    clearTimeout(timer);
    timer = null;
  }
  const result = await outbox.flush(force);
  if (result.sent || result.refused) await queryClient.invalidateQueries({ queryKey: ['driver'], predicate: changedByActions });
  if (result.retryAt !== null) timer = setTimeout(() => void flushOutbox(), Math.max(0, result.retryAt - Date.now()));
}

let started = false;
/** Starts the flushing triggers once per page. */
export function startOutbox(): void {
  if (started) return;
  started = true;
  addEventListener('online', () => void flushOutbox(true));
  connection.subscribe(() => {
    if (connection.isOnline()) void flushOutbox(true);
  });
  void outbox.load().then(() => flushOutbox(true));
}

/** Records an action on the device and sends it when it can: the screen shows it at once (projectTour). */
export async function takeAction(input: { kind: ActionKind; tourId: string; stopId: string | null; path: string; body: unknown }): Promise<QueuedAction | null> {
  // A tap the device could not store is shown to the driver as a notice (useNotKept), not thrown at the button.
  const action = await outbox.enqueue(input).catch(() => null);
  if (action) void flushOutbox();
  return action;
}

/** Once the outbox is not sending: reads made meanwhile would see the state its actions are about to change. */
export const outboxIdle = (): Promise<void> => outbox.idle();

const subscribe = (listener: () => void) => outbox.subscribe(listener);
const snapshot = () => outbox.snapshot();

export const useOutbox = (): readonly QueuedAction[] => useSyncExternalStore(subscribe, snapshot);

const notKeptSnapshot = () => outbox.notKeptSnapshot();
/** The taps this device could not store (shown until dismissed). */
export const useNotKept = (): readonly NotKept[] => useSyncExternalStore(subscribe, notKeptSnapshot);
