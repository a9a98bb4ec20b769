// Compat on the wire: deprecation headers, sunset enforcement for deprecated routes, and the removed-route answers.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import type { Actor } from '../http/actor.ts';
import { AppError } from '../http/errors.ts';
import type { Messages } from '../http/i18n.ts';
import { compatItem, deprecationHeaders, isSunset, type CompatKey } from './registry.ts';

export const messages: Messages = {
  'error.removed': { en: 'This endpoint has been removed.', de: 'Dieser Endpunkt wurde entfernt.' },
  'error.removed_with_successor': {
    en: 'This endpoint has been removed; use {successor} instead.',
    de: 'Dieser Endpunkt wurde entfernt; verwenden Sie stattdessen {successor}.',
  },
};

/** Adds Deprecation / Sunset / Link rel="successor-version" to a response that used a deprecated item. */
export function markDeprecated(reply: FastifyReply, key: CompatKey): void {
  for (const [name, value] of Object.entries(deprecationHeaders(key))) {
    // A response may use several deprecated items; Link values accumulate, the first Deprecation/Sunset wins.
    const existing = reply.getHeader(name);
    if (existing === undefined) reply.header(name, value);
    else if (name === 'link' && !String(existing).includes(value)) reply.header(name, `${String(existing)}, ${value}`);
  }
}

/**
 * Whether a deprecated item (field, query alias, event) still applies for this caller: false once it is past its
 * removal date and the tenant enforces sunsets, or when the item is removed outright. Colleagues omit fields and skip
 * events with it: `if (stillServed(deps, actor, 'admin.places')) body.admin = …`.
 */
export function stillServed(deps: Pick<Deps, 'clock'>, actor: Pick<Actor, 'settings'>, key: CompatKey): boolean {
  return !isSunset(key, deps.clock.now(), actor.settings);
}

/** 404 `removed` with `removed_on` and `successor` members (docs/api-guide.md "Errors" and "Deprecations and removals"). */
export function removedError(key: CompatKey): AppError {
  const item = compatItem(key);
  const detail = { key: item.successor ? 'error.removed_with_successor' : 'error.removed', params: { successor: item.successor ?? '' } };
  return new AppError(404, 'removed', detail, [], { removed_on: item.removalOn, successor: item.successor });
}

/**
 * preHandler for a deprecated route: answers with the deprecation headers while it is served, and 404 `removed`
 * once the tenant enforces sunsets and the removal date has passed. Usage: `{ preHandler: deprecatedRoute(deps, key) }`.
 */
export function deprecatedRoute(deps: Pick<Deps, 'clock'>, key: CompatKey) {
  const hook = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (request.actor && !stillServed(deps, request.actor, key)) throw removedError(key);
    markDeprecated(reply, key);
  };
  // The OpenAPI pass reads the key to mark the operation deprecated (src/http/openapi.ts).
  return Object.assign(hook, { compatKey: key });
}

/** The removed surface: every method, any auth, answers 404 `removed` before the body is even read. */
const REMOVED_ROUTES: { url: string; key: CompatKey }[] = [
  { url: '/api/fleet', key: 'fleet_management' },
  { url: '/api/fleet/*', key: 'fleet_management' },
  { url: '/api/vehicles', key: 'fleet_management' },
  { url: '/api/vehicles/*', key: 'fleet_management' },
  { url: '/api/admin/fleet', key: 'fleet_management' },
  { url: '/api/admin/fleet/*', key: 'fleet_management' },
  { url: '/api/hailing_bookings/:id/preferred_drivers', key: 'hailing_bookings_preferred_drivers' },
];

export const removedRoutes = (): FastifyPluginAsyncTypebox => async (app) => {
  for (const { url, key } of REMOVED_ROUTES) {
    app.all(
      url,
      {
        config: { auth: 'public' },
        // Any query string is accepted: the answer is 404 removed whatever was asked.
        schema: { hide: true, querystring: Type.Object({}, { additionalProperties: true }) },
        onRequest: async () => {
          throw removedError(key);
        },
      },
      async () => {
        throw removedError(key);
      },
    );
  }
};
