// The app's one outbox: kept in IndexedDB, flushed when an action is taken, when the browser says it is online again,
// when the service answers again, and at each backoff deadline.
import { useSyncExternalStore } from 'react';
import { connection } from '../../api/connection.ts';
import { queryClient } from '../../api/query-client.ts';
import { idbStore, openDatabase } from './idb-store.ts';
import { Outbox, type ActionKind, type QueuedAction } from './outbox.ts';
import { sendAction } from './send.ts';

const newKey = (): string => `driver-${crypto.randomUUID()}`;

export const outbox = new Outbox(idbStore(openDatabase('tourbook-driver')), sendAction, { now: () => Date.now(), newKey }, () => {
  // The server's state moved: what the screens show is fetched again (after the queue is through, not per action).
});

let timer: ReturnType<typeof setTimeout> | null = null;

/** Flushes now and plans the next try; refetches the driver's data once something went through. */
export async function flushOutbox(force = false): Promise<void> {
  if (timer) {
    clearTimeout(timer);
    timer = null;
  }
  const result = await outbox.flush(force);
  if (result.sent || result.refused) await queryClient.invalidateQueries({ queryKey: ['driver'] });
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
export async function takeAction(input: { kind: ActionKind; tourId: string; stopId: string | null; path: string; body: unknown }): Promise<QueuedAction> {
  const action = await outbox.enqueue(input);
  void flushOutbox();
  return action;
}

const subscribe = (listener: () => void) => outbox.subscribe(listener);
const snapshot = () => outbox.snapshot();

export const useOutbox = (): readonly QueuedAction[] => useSyncExternalStore(subscribe, snapshot);
