// ETag on successful GETs (If-None-Match → 304) and If-Match on PUT/PATCH/DELETE (412 precondition_failed).
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';
import type { Messages } from './i18n.ts';

export const messages: Messages = {
  'error.precondition_failed': {
    en: 'The resource has changed since you read it (If-Match does not match its current ETag).',
    de: 'Die Ressource hat sich geändert, seit Sie sie gelesen haben (If-Match passt nicht zum aktuellen ETag).',
  },
  'error.precondition_unverifiable': {
    en: 'If-Match cannot be checked here: this URL has no GET representation.',
    de: 'If-Match kann hier nicht geprüft werden: Diese URL hat keine GET-Darstellung.',
  },
};

const CONDITIONAL_WRITES = new Set(['PUT', 'PATCH', 'DELETE']);
/** Marks the internal GET that reads the current representation, so it is not rate-limited or counted twice. */
export const INTERNAL_HEADER = 'x-tourbook-internal';
const INTERNAL_SECRET = randomBytes(16).toString('hex');

export const isInternalRequest = (request: FastifyRequest): boolean => request.headers[INTERNAL_HEADER] === INTERNAL_SECRET;
/** The header that marks an injected request as internal (also a bulk route's items, decision 0320). */
export const internalHeader = (): Record<string, string> => ({ [INTERNAL_HEADER]: INTERNAL_SECRET });

/** Weak, because the hash is of the JSON serialization, not of the bytes on the wire after any encoding. */
export const etagOf = (body: string | Buffer): string => `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

/** Entity tags of an If-Match / If-None-Match header; `*` matches any; comparison is weak (RFC 9110 §8.8.3.2). */
function matches(header: string, etag: string | null): boolean {
  if (header.trim() === '*') return etag !== null;
  if (etag === null) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

const preconditionFailed = (key: string) => new AppError(412, 'precondition_failed', { key });

export function registerEtags(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' || reply.statusCode !== 200 || !request.url.startsWith('/api/')) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const etag = etagOf(payload);
    reply.header('etag', etag);
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch && matches(ifNoneMatch, etag)) {
      reply.code(304).removeHeader('content-type').removeHeader('content-length');
      return '';
    }
    return payload;
  });

  /**
   * If-Match is evaluated against the representation the client could have read: the GET of the same URL, made
   * with the caller's own credential and language (docs/decisions/0101). Never required.
   */
  app.addHook('preHandler', async (request) => {
    const ifMatch = request.headers['if-match'];
    if (!ifMatch || !CONDITIONAL_WRITES.has(request.method) || request.idempotentReplay) return;
    const routeUrl = request.routeOptions.url;
    if (!routeUrl || !app.hasRoute({ method: 'GET', url: routeUrl })) throw preconditionFailed('error.precondition_unverifiable');
    const headers: Record<string, string> = { [INTERNAL_HEADER]: INTERNAL_SECRET };
    for (const name of ['authorization', 'api-key', 'accept-language']) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const current = await app.inject({ method: 'GET', url: request.url.split('?')[0] ?? request.url, headers });
    const etag = current.statusCode === 200 ? (current.headers.etag as string | undefined) ?? null : null;
    if (!matches(ifMatch, etag)) throw preconditionFailed('error.precondition_failed');
  });
}
