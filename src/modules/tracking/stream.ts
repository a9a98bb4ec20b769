// GET /api/tracking/{token}/live: the tracking object again whenever it changes (SSE, `event: tracking`), for anyone
// holding the link. The live hub says when the booking, its tour or the tour's driver moved; the feed (feed.ts) keeps
// each link's facts and sends a stream the object only when it differs, so a position that is not shown sends nothing
// (decisions 1102, 1107).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import type { Lang } from '../../http/i18n.ts';
import { trackingFeedOf, type TrackingClient } from './feed.ts';
import { loadTrackingFacts, renderTracking } from './operations.ts';

/** A client that does not read is dropped rather than buffered without end (EventSource reconnects). */
const MAX_BUFFERED_BYTES = 256 * 1024;

/** The frame of a tracking object already serialised: the same bytes as `JSON.stringify({ tracking: view })`. */
const frame = (json: string): string => `event: tracking\ndata: {"tracking":${json}}\n\n`;

export async function openTrackingStream(deps: Deps, token: string, lang: Lang, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  // 404 and 410 come as problem+json before the stream opens.
  const facts = await loadTrackingFacts(deps, token);
  const feed = trackingFeedOf(deps);
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
  const first = JSON.stringify(renderTracking(deps, token, facts, lang));
  res.write(`retry: 5000\n\n${frame(first)}`);

  const client: TrackingClient = {
    lang,
    sent: first,
    closed: false,
    send(json) {
      if (client.closed) return;
      client.sent = json;
      res.write(frame(json));
      if (res.writableLength > MAX_BUFFERED_BYTES) client.close();
    },
    heartbeat() {
      if (!client.closed) res.write(': heartbeat\n\n');
    },
    close() {
      if (client.closed) return;
      client.closed = true;
      feed.unwatch(token, client);
      res.end();
    },
  };
  res.on('close', () => client.close());
  try {
    await feed.watch(token, facts, client);
  } catch (err) {
    // The hub stopped (the app is closing): nothing will tell this stream of changes.
    deps.log.warn({ err }, 'tracking: stream could not join the live hub');
    return client.close();
  }
  if (!client.closed) res.write(': ready\n\n');
}
