// GET /api/live: one text/event-stream of the caller's visible tour and booking events and driver positions.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { authenticate, credentialOf } from '../../../http/auth.ts';
import { forbidden } from '../../../http/errors.ts';
import { isUuid } from '../../../shared/ids.ts';
import { sha256Hex } from '../../../shared/secrets.ts';
import type { Envelope } from '../../../events/outbox.ts';
import { frameOf, uuidFloor, type LiveHub, type Subscriber } from '../hub.ts';
import { mayOnLive } from '../permissions.ts';
import type { LiveQueryT } from '../schemas.ts';
import { redeemLiveTicket } from './tickets.ts';

/** Last-Event-ID resumes what the outbox recorded in this window (issue 15). */
export const RESUME_WINDOW_MS = 5 * 60 * 1000;
/** A client that does not read is dropped rather than buffered without end (EventSource reconnects and resumes). */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/** The caller: a ticket (browsers' EventSource cannot send headers), the usual Authorization / api-key header, or the session cookie. */
async function caller(deps: Deps, request: FastifyRequest, query: LiveQueryT): Promise<{ actor: Actor; credentialHash: string }> {
  if (query.ticket !== undefined) return redeemLiveTicket(deps, query.ticket, request.headers['accept-language']);
  const actor = await authenticate(deps, request);
  return { actor, credentialHash: sha256Hex(credentialOf(request)?.token ?? '') };
}

export async function openLiveStream(deps: Deps, hub: LiveHub, request: FastifyRequest, query: LiveQueryT, reply: FastifyReply): Promise<void> {
  const { actor, credentialHash } = await caller(deps, request, query);
  request.actor = actor;
  if (!mayOnLive(actor, 'open_stream')) throw forbidden();
  const types = query.filters?.types;
  const lastEventId = request.headers['last-event-id'];

  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': request.id,
  });
  res.write('retry: 3000\n\n');

  // Ids are UUIDv7 (time-ordered): a stream starts after the last id the client saw, or at the moment it opened,
  // so the hub's look-back over recent commits never hands a new client the past.
  const opened = uuidFloor(Date.now());
  const given = typeof lastEventId === 'string' && isUuid(lastEventId) ? lastEventId.toLowerCase() : null;
  // An id from the future names no event yet: resuming after it held back every event until that time. Such a stream
  // starts now, like one without Last-Event-ID; refusing it would end an EventSource for good (decision 0118).
  const resumeFrom = given !== null && given < uuidFloor(Date.now() + 1) ? given : null;
  let replaying: Envelope[] | null = resumeFrom ? [] : null;
  let after = resumeFrom ?? opened;
  // A resumed stream takes what was written before it opened from the backlog, whose window is the service clock's;
  // the hub's look-back may hand it the same events too, and must not bring back one the window left out.
  const resumeSince = deps.clock.now().getTime() - RESUME_WINDOW_MS;
  const beforeWindow = (envelope: Envelope): boolean => resumeFrom !== null && envelope.id < opened && Date.parse(envelope.timestamp) < resumeSince;
  const sent = new Set<string>();
  let closed = false;
  // Frames of one event-loop turn go out as one write: under load many notices arrive per turn, and each write is a
  // system call (and an HTTP chunk) per client — the fan-out's main cost (docs/performance.md).
  let pending = '';
  const flush = (): void => {
    const chunk = pending;
    pending = '';
    if (closed || !chunk) return;
    res.write(chunk);
    if (res.writableLength > MAX_BUFFERED_BYTES) subscriber.close();
  };
  const write = (frame: string): void => {
    if (closed) return;
    if (!pending) setImmediate(flush);
    pending += frame;
  };
  const subscriber: Subscriber = {
    tenantId: actor.tenantId,
    viewer: actor,
    credentialHash,
    filters: { tourId: query.filters?.tour_id ?? null, types: types === undefined ? null : new Set([types].flat()) },
    deliver(envelope, frame) {
      if (envelope.id <= after || beforeWindow(envelope)) return;
      if (replaying) replaying.push(envelope);
      else write(frame);
    },
    heartbeat: () => write(': heartbeat\n\n'),
    close() {
      if (closed) return;
      closed = true;
      hub.remove(subscriber);
      res.end();
    },
  };
  res.on('close', () => subscriber.close());
  await hub.add(subscriber);
  if (replaying && resumeFrom) {
    // Live events arriving meanwhile wait, so the client sees the backlog first and nothing twice.
    for (const envelope of await hub.backlog(subscriber, resumeFrom, RESUME_WINDOW_MS)) {
      sent.add(envelope.id);
      write(frameOf(envelope));
      if (envelope.id > after) after = envelope.id;
    }
    const waiting = replaying;
    replaying = null;
    for (const envelope of waiting) if (!sent.has(envelope.id)) write(frameOf(envelope));
  }
  write(': ready\n\n');
}
