// The live stream (api-guide "The live stream"): a single-use ticket, then an EventSource. When the stream drops,
// a new ticket opens a new stream after a short wait; the events missed meanwhile are refetched by the page.
import { useEffect, useState } from 'react';
import { useLatest } from '../ui/use-latest.ts';
import { api, call } from './client.ts';
import { LIVE_EVENT_TYPES } from './closed-lists.ts';

export interface LiveEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

export type LiveState = 'connecting' | 'open' | 'reconnecting';

interface Options {
  /** Event types to receive (`filters[types][]`); all visible ones when empty. */
  types?: string[];
  tourId?: string;
  enabled?: boolean;
}

/**
 * Calls `onEvent` for each event (the latest callback; no re-subscription when it changes) and `onOpened` each
 * time the stream opens — the first time too: an event written between the page's first read and the stream's
 * start (a ticket and a connection later) reaches no stream, so the page reloads what it may have missed.
 */
export function useLiveStream(onEvent: (event: LiveEvent) => void, options: Options & { onOpened?: () => void } = {}): LiveState {
  const [state, setState] = useState<LiveState>('connecting');
  const handlers = useLatest({ onEvent, onOpened: options.onOpened });
  const types = (options.types ?? []).join(',');
  const enabled = options.enabled ?? true;
  const tourId = options.tourId;

  useEffect(() => {
    if (!enabled) return;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let stopped = false;
    let attempt = 0;

    const open = async () => {
      try {
        const { ticket } = await call(api.POST('/api/live/tickets', {}));
        if (stopped) return;
        const params = new URLSearchParams();
        for (const type of types ? types.split(',') : []) params.append('filters[types][]', type);
        if (tourId) params.set('filters[tour_id]', tourId);
        const url = `${ticket.url}${params.size ? `&${params}` : ''}`;
        source = new EventSource(url);
        source.onopen = () => {
          attempt = 0;
          setState('open');
          handlers.current.onOpened?.();
        };
        source.onmessage = null;
        const listener = (message: MessageEvent<string>) => {
          const envelope = JSON.parse(message.data) as { id: string; type: string; data: Record<string, unknown> };
          handlers.current.onEvent({ id: envelope.id, type: envelope.type, data: envelope.data });
        };
        for (const type of types ? types.split(',') : LIVE_EVENT_TYPES) source.addEventListener(type, listener as EventListener);
        source.onerror = () => {
          // A ticket opens one stream: EventSource's own retry would present a used ticket. Start over instead.
          source?.close();
          retry();
        };
      } catch {
        retry();
      }
    };
    const retry = () => {
      if (stopped) return;
      setState('reconnecting');
      attempt += 1;
      timer = setTimeout(() => void open(), Math.min(1000 * 2 ** Math.min(attempt, 4), 15_000));
    };
    void open();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      source?.close();
    };
  }, [types, tourId, enabled, handlers]);
  return state;
}

