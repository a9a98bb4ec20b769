// GET /api/tracking/{token}/live: the tracking object again whenever it changes (SSE, `event: tracking`), for anyone
// holding the link. The live hub says when the booking, its tour or the tour's driver moved; the object is read again
// and sent only when it differs, so a position that is not shown sends nothing (decision 1102).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import type { Lang } from '../../http/i18n.ts';
import { liveHubOf, type Subscriber } from '../live/index.ts';
import { loadTracking } from './operations.ts';

/** A client that does not read is dropped rather than buffered without end (EventSource reconnects). */
const MAX_BUFFERED_BYTES = 256 * 1024;

const frame = (view: unknown): string => `event: tracking\ndata: ${JSON.stringify({ tracking: view })}\n\n`;

type Loaded = Awaited<ReturnType<typeof loadTracking>>;

/**
 * Reads in flight by link and language, with the change that caused them (decision 1104). Every stream of one link
 * woken by the same change shares one read: many recipients' tabs (or a shop's embeds) of one booking cost one read per
 * change, not one each. A stream woken by another change never joins an older read (it might predate the change).
 */
const sharedReads = new Map<string, { cause: unknown; read: Promise<Loaded> }>();

function readShared(deps: Deps, token: string, lang: Lang, cause: unknown): Promise<Loaded> {
  const key = `${token}\0${lang}`;
  const found = sharedReads.get(key);
  if (found && found.cause === cause) return found.read;
  const read = loadTracking(deps, token, lang).finally(() => {
    if (sharedReads.get(key)?.read === read) sharedReads.delete(key);
  });
  sharedReads.set(key, { cause, read });
  return read;
}

export async function openTrackingStream(deps: Deps, token: string, lang: Lang, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  // 404 and 410 come as problem+json before the stream opens.
  let current = await loadTracking(deps, token, lang);
  const hub = liveHubOf(deps);
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'access-control-allow-origin': '*',
    'x-robots-tag': 'noindex',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': request.id,
  });
  let sent = JSON.stringify(current.view);
  res.write(`retry: 5000\n\n${frame(current.view)}`);

  let closed = false;
  let reading = false;
  let again = false;
  /** The change this stream last heard of (the envelope itself; its own opening at first). */
  let cause: unknown = request;
  /** Reads the object again (one read at a time; changes meanwhile read once more after it) and sends it if it moved. */
  const refresh = async (): Promise<void> => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        try {
          current = await readShared(deps, token, lang, cause);
        } catch (err) {
          // Rotated (404) or expired (410): the link is over, and so is its stream.
          if (err instanceof AppError && (err.status === 404 || err.status === 410)) return subscriber.close();
          deps.log.warn({ err }, 'tracking: stream read failed');
          continue;
        }
        const json = JSON.stringify(current.view);
        if (json !== sent && !closed) {
          sent = json;
          res.write(frame(current.view));
          if (res.writableLength > MAX_BUFFERED_BYTES) subscriber.close();
        }
      } while (again && !closed);
    } finally {
      reading = false;
    }
  };
  const concerns = (data: Record<string, unknown>): boolean => data.booking_id === current.bookingId || (current.tourId !== null && data.tour_id === current.tourId);
  const subscriber: Subscriber = {
    tenantId: current.tenantId,
    // The hub's admin audience of the tenant only tells this stream that something changed: it forwards nothing of
    // what it hears, it reads its own object again.
    viewer: { role: 'admin', userId: '', organizationIds: [] },
    credentialHash: null,
    filters: { tourId: null, types: null },
    deliver(envelope) {
      if (closed || !concerns(envelope.data)) return;
      cause = envelope;
      void refresh();
    },
    heartbeat: () => {
      if (!closed) res.write(': heartbeat\n\n');
    },
    close() {
      if (closed) return;
      closed = true;
      hub.remove(subscriber);
      res.end();
    },
  };
  res.on('close', () => subscriber.close());
  await hub.add(subscriber);
  // A change between the first read and joining the hub would be missed: read once more now that it listens.
  void refresh();
  res.write(': ready\n\n');
}
