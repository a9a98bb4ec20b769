// Sub-requests: a bulk route calls its single route once per item, as the caller, through the whole request pipeline.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import { actorOf } from './actor.ts';
import { internalHeader } from './etag.ts';
import { fingerprint, idempotencyScope, peekKey, type Decision } from './idempotency.ts';

/** What identifies the caller and its language; the inner request authenticates with them as the outer one did. */
const FORWARDED = ['authorization', 'api-key', 'cookie', 'origin', 'sec-fetch-site', 'host', 'accept-language'];

export interface SubResponse {
  status: number;
  /** The parsed JSON body: the resource envelope, or a problem. */
  body: unknown;
  /** Answered from the idempotency store rather than run (`idempotent-replayed`). */
  replayed: boolean;
}

/** One route of this API, called as the caller of a bulk request, one item at a time. */
export interface SubRequests {
  /** The route's answer to `body` sent with this Idempotency-Key: validation, permission, write, events, stored outcome. */
  send(method: string, url: string, idempotencyKey: string, body: unknown): Promise<SubResponse>;
  /** What the same request would meet in the idempotency store, read without claiming the key (a dry run). */
  peek(method: string, url: string, idempotencyKey: string, body: unknown): Promise<Decision>;
}

/**
 * Each item is an injected request carrying the caller's own credential, marked internal so that it is neither
 * rate-limited nor counted again (the bulk request was, decision 0320): the single route's schema, permissions,
 * events and Idempotency-Key handling apply unchanged, with nothing forked. The same mechanism reads the
 * representation for If-Match (decision 0101).
 */
export function subRequests(app: Pick<FastifyInstance, 'inject'>, deps: Pick<Deps, 'db' | 'clock'>, request: FastifyRequest): SubRequests {
  const headers: Record<string, string> = { ...internalHeader(), 'x-request-id': request.id };
  for (const name of FORWARDED) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const actor = actorOf(request);
  return {
    async send(method, url, idempotencyKey, body) {
      const response = await app.inject({
        method: method as 'POST',
        url,
        headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
        payload: JSON.stringify(body),
      });
      return { status: response.statusCode, body: response.json(), replayed: response.headers['idempotent-replayed'] === 'true' };
    },
    peek(method, url, idempotencyKey, body) {
      // The fingerprint of the body as the route would parse it: JSON text and back, as the inner request does.
      const parsed: unknown = JSON.parse(JSON.stringify(body));
      return peekKey(deps, { tenantId: actor.tenantId, scopeId: idempotencyScope(actor), key: idempotencyKey }, fingerprint(method, url, parsed));
    },
  };
}
