// Whether the service answers: every request reports here, so one banner can say "connection lost" and clear itself.
import { useSyncExternalStore } from 'react';

type Listener = () => void;
let online = true;
const listeners = new Set<Listener>();

let probe: ReturnType<typeof setInterval> | null = null;

/** While lost, ask /healthz every few seconds, so the banner clears even when nothing else is being fetched. */
function startProbe(): void {
  probe ??= setInterval(() => {
    fetch('/healthz', { cache: 'no-store' }).then(
      (response) => response.ok && set(true),
      () => undefined,
    );
  }, 3000);
}

function set(next: boolean): void {
  if (next === online) return;
  online = next;
  if (online && probe) {
    clearInterval(probe);
    probe = null;
  }
  if (!online) startProbe();
  for (const listener of listeners) listener();
}

export const connection = {
  reportAnswered: () => set(true),
  reportLost: () => set(false),
  isOnline: () => online,
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export const useConnection = (): boolean => useSyncExternalStore(connection.subscribe, connection.isOnline);
