// Authentication: Bearer or api-key token, else the browser session cookie → Actor, with a short per-process cache.
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
// The leaf file, not identity's index: identity's operations import this file (credential cache invalidation), and
// the index re-exports them, so going through the index would close an import loop.
import { findActiveCredential } from '../modules/identity/actors.ts';
import { sha256Hex } from '../shared/secrets.ts';
import type { Actor } from './actor.ts';
import { unauthenticated } from './errors.ts';
import { pickLang } from './i18n.ts';
import { crossSiteRequest, isSameOriginWrite, sessionTokenOf } from './session-cookie.ts';

type CachedActor = Omit<Actor, 'lang'> & { expiresAt: number | null; kind: string };

/**
 * Resolving a credential costs a query; caching it for a few seconds keeps authenticated reads close to a
 * bare SELECT. Revocation and deactivation in this process evict at once (invalidateCredentialCache);
 * other api processes see it within CACHE_MS.
 */
const CACHE_MS = 5_000;
const MAX_ENTRIES = 10_000;
const cache = new Map<string, { actor: CachedActor; until: number }>();

export function invalidateCredentialCache(): void {
  cache.clear();
}

export function tokenFromRequest(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (match?.[1]) return match[1];
  }
  const apiKey = request.headers['api-key'];
  if (typeof apiKey === 'string' && apiKey.trim()) return apiKey.trim();
  return null;
}

/** The token a request authenticates with: a header wins; the session cookie counts only without one. */
export function credentialOf(request: FastifyRequest): { token: string; fromCookie: boolean } | null {
  const header = tokenFromRequest(request);
  if (header !== null) return { token: header, fromCookie: false };
  const session = sessionTokenOf(request);
  return session === null ? null : { token: session, fromCookie: true };
}

export async function authenticate(deps: Deps, request: FastifyRequest): Promise<Actor> {
  const credential = credentialOf(request);
  if (!credential || credential.token.length > 512) throw unauthenticated();
  const { token, fromCookie } = credential;
  // Refused before the token is even looked up: a cross-site write learns nothing and changes nothing (decision 0140).
  if (fromCookie && !isSameOriginWrite(request, deps.config)) throw crossSiteRequest();
  const hash = sha256Hex(token);
  const nowMs = deps.clock.now().getTime();
  let entry = cache.get(hash);
  if (!entry || entry.until < Date.now()) {
    const found = await findActiveCredential(deps.db, hash);
    if (!found) throw unauthenticated();
    if (cache.size >= MAX_ENTRIES) cache.clear();
    entry = { actor: found, until: Date.now() + CACHE_MS };
    cache.set(hash, entry);
  }
  if (entry.actor.expiresAt !== null && entry.actor.expiresAt <= nowMs) throw unauthenticated();
  // Session tokens work only as the cookie, and the cookie carries only session tokens: each kind keeps its own checks.
  if ((entry.actor.kind === 'session') !== fromCookie) throw unauthenticated();
  const { expiresAt: _expiresAt, kind: _kind, ...actor } = entry.actor;
  return { ...actor, lang: pickLang(request.headers['accept-language']) };
}
