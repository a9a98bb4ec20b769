// The browser session cookie (decision 0140): its name and flags, reading it, and the same-origin rule for writes.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { Config } from '../config.ts';
import { AppError } from './errors.ts';
import type { Messages } from './i18n.ts';

export const messages: Messages = {
  'error.cross_site_request': {
    en: 'A write made with the session cookie must come from a Tourbook page (same origin); integrations send a Bearer token instead.',
    de: 'Ein Schreibzugriff mit dem Sitzungs-Cookie muss von einer Tourbook-Seite (gleicher Ursprung) kommen; Integrationen senden stattdessen ein Bearer-Token.',
  },
};

export const SESSION_COOKIE = 'tourbook_session';
/** A browser that signed in before (decision 1621): sent to the sign-in routes only, kept across sign-outs. */
export const DEVICE_COOKIE = 'tourbook_device';
const DEVICE_COOKIE_PATH = '/api/s';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const crossSiteRequest = (): AppError => new AppError(403, 'cross_site_request', { key: 'error.cross_site_request' });

/** The session token the browser sent, or null. Requests without the cookie's name skip the parse entirely. */
export function sessionTokenOf(request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (typeof header !== 'string' || !header.includes(SESSION_COOKIE)) return null;
  return parseCookie(header)[SESSION_COOKIE] || null;
}

/** `scheme://host[:port]` normalized (lower case, default port dropped), or null for anything that is not one. */
function originOf(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** The request's own origin, and PUBLIC_URL's: a proxy in front may change the host the service sees. */
function ownOrigins(request: FastifyRequest, config: Config): (string | null)[] {
  return [originOf(`${request.protocol}://${request.host}`), config.publicUrl ? originOf(config.publicUrl) : null];
}

const isOwnOrigin = (request: FastifyRequest, config: Config, origin: string): boolean => {
  const given = originOf(origin);
  return given !== null && ownOrigins(request, config).includes(given);
};

/**
 * A browser attaches cookies to requests other sites start; only the browser's own headers tell them apart
 * (decision 0140). A write with the cookie passes when `Sec-Fetch-Site` is `same-origin`, or, from a browser that
 * does not send it, when `Origin` is the service's own. Neither header: not provably ours, refused.
 */
export function isSameOriginWrite(request: FastifyRequest, config: Config): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin';
  const origin = request.headers.origin;
  return typeof origin === 'string' && isOwnOrigin(request, config, origin);
}

/**
 * Sign-in sets a cookie rather than using one, so a client without a browser's headers (curl, an integration) may
 * call it; a browser that says the request comes from another site is refused, so no page can sign a visitor into
 * an account of its choosing (login CSRF).
 */
export function isCrossSiteSignIn(request: FastifyRequest, config: Config): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site !== 'same-origin';
  const origin = request.headers.origin;
  return typeof origin === 'string' && !isOwnOrigin(request, config, origin);
}

/** Secure whenever the browser reached us over HTTPS: the connection itself, or PUBLIC_URL when a proxy ends TLS. */
const secureFor = (request: FastifyRequest, config: Config): boolean => request.protocol === 'https' || Boolean(config.publicUrl?.startsWith('https:'));

export function setSessionCookie(reply: FastifyReply, request: FastifyRequest, config: Config, token: string, maxAgeSeconds: number): void {
  const secure = secureFor(request, config);
  void reply.header('set-cookie', stringifySetCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'strict', maxAge: maxAgeSeconds, secure }));
}

/** The device cookie the browser sent, or null. */
export function deviceTokenOf(request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (typeof header !== 'string' || !header.includes(DEVICE_COOKIE)) return null;
  return parseCookie(header)[DEVICE_COOKIE] || null;
}

/** `Path=/api/s`: the browser sends it to `/api/session` and `/api/signin`, and to no other request. */
export function setDeviceCookie(reply: FastifyReply, request: FastifyRequest, config: Config, token: string, maxAgeSeconds: number): void {
  const secure = secureFor(request, config);
  void reply.header('set-cookie', stringifySetCookie(DEVICE_COOKIE, token, { path: DEVICE_COOKIE_PATH, httpOnly: true, sameSite: 'strict', maxAge: maxAgeSeconds, secure }));
}

/** Max-Age=0 makes the browser drop the cookie at once (RFC 6265 §5.2.2). */
export function clearSessionCookie(reply: FastifyReply, request: FastifyRequest, config: Config): void {
  setSessionCookie(reply, request, config, '', 0);
}
