// The OpenAPI document as a contract: @fastify/swagger's options, and the pass that gives every operation what the
// service really does around it (security, error responses, headers, deprecation) from one place (decision 0150).
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifySchema, RouteOptions } from 'fastify';
import { compatItem, deprecationHeaders, type CompatKey } from '../compat/registry.ts';
import { composeExamples } from './openapi-examples.ts';
import { HEADERS, hoistComponents, headerRef, PARAMETERS, parameterRef, Problem, RESPONSES, responseRef } from './openapi-components.ts';

type Json = Record<string, unknown>;
type Auth = 'user' | 'public' | 'operator';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Request bodies a route reads itself beside its validated JSON body (multipart uploads), by media type: they go
     * into the document as given and never reach Fastify's validation (decision 0161).
     */
    documentedBodies?: Record<string, { schema: unknown }>;
  }
}

/** The vendor key carrying a compat registry key on a deprecated field, parameter or route. */
export const COMPAT_KEY = 'x-compat-key';

/** Marks a schema as a deprecated item of the compat registry: `deprecated: true` on the wire, headers documented. */
export const deprecatedItem = <T extends object>(key: CompatKey, schema: T): T & { deprecated: true; description: string } => {
  const item = compatItem(key);
  const successor = item.successor ? ` Use ${item.successor} instead.` : '';
  const sunset = item.removalOn ? ` Removed on ${item.removalOn} for tenants that enforce sunsets.` : '';
  return { ...schema, deprecated: true, [COMPAT_KEY]: key, description: `Deprecated.${successor}${sunset}` };
};

const SECURITY: Record<Auth, Json[]> = {
  user: [{ bearer: [] }, { apiKey: [] }, { session: [] }],
  operator: [{ operatorToken: [] }],
  public: [],
};

const TAGS = [
  { name: 'bookings', description: 'Bookings, their stops and packages.' },
  { name: 'tours', description: 'Tours: the tour machine and dispatching stops into tours.' },
  { name: 'stops', description: 'Stops: the driver flow (approach, arrive, complete, fail) and failure options.' },
  { name: 'packages', description: 'Package lookup, force delivery, transitions.' },
  { name: 'reasons', description: 'Package and stop failure reasons.' },
  { name: 'places', description: 'Places: addresses with a location, reusable as stops.' },
  { name: 'services', description: 'Tour services and scheduling configs.' },
  { name: 'identity', description: 'The caller and its permissions.' },
  { name: 'users', description: "The tenant's users (admins)." },
  { name: 'authentication', description: 'Sign-in, token refresh and API keys.' },
  { name: 'organizations', description: 'Organizations: managers and drivers belong to them.' },
  { name: 'service areas', description: 'Service areas: currency, time zone, boundary.' },
  { name: 'tenant', description: "The tenant's own settings." },
  { name: 'operator', description: 'Tenant creation and extensions: the operator token only.' },
  { name: 'webhooks', description: 'Webhook subscriptions, their deliveries, and the events delivered.' },
  { name: 'analytics', description: 'Delivery figures a team lead reads: on time, first attempt, ETA accuracy, per driver, day and failure reason; a tour planned against actual.' },
  { name: 'reports', description: 'Generated files shared by visibility grants: encrypted at rest, expiring, downloaded by whoever a grant reaches.' },
  { name: 'events', description: 'The event log.' },
  { name: 'live', description: 'Driver positions, ETAs and the live event stream.' },
  { name: 'compensation', description: "Tour compensation: base earnings, bonuses, tips, history; legacy earnings." },
  { name: 'tracking', description: "A booking's recipient tracking link: the public read by the link's token; no credential." },
  { name: 'operations', description: 'Health, readiness and metrics for operators; no credential.' },
  { name: 'shifts', description: "Drivers' shifts: when they work, where their tours start and end, what their vehicle carries." },
  { name: 'routing', description: 'Travel times and distances between points: the configured engine, the imported regions’ roads, or straight lines.' },
  { name: 'regions', description: 'Imported OpenStreetMap regions (the operator imports them; every tenant uses them) and geocoding of addresses against places, regions and a configured provider.' },
];

export function swaggerOptions(webhooks: Json): FastifyDynamicSwaggerOptions {
  /** `get /api/hailing/failure_reasons` → its compat key, gathered route by route before the document pass. */
  const deprecatedRoutes = new Map<string, CompatKey>();
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tourbook API',
        version: '0.1.0',
        description:
          'Multi-tenant tour and booking logistics: bookings, tours, stops, packages, places and webhooks. ' +
          'Errors are `application/problem+json` (`Problem`); conventions (pagination, idempotency, ETags, rate limits, deprecations) are in the API guide.',
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
        contact: { name: 'Tourbook', url: 'https://tourbook.dev' },
      },
      servers: [{ url: '/', description: 'The service that serves this document' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'An API key (`tb_…`) or an access token from `POST /api/signin`.' },
          apiKey: { type: 'apiKey', in: 'header', name: 'api-key', description: 'The same API key in the `api-key` header.' },
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'tourbook_session',
            description: 'A browser session from `POST /api/session` (HttpOnly). Writes with it need `Sec-Fetch-Site: same-origin` or a same-origin `Origin` (403 `cross_site_request`).',
          },
          operatorToken: { type: 'http', scheme: 'bearer', description: "The process's `OPERATOR_TOKEN` (operator routes only)." },
        },
        schemas: { Problem },
        parameters: PARAMETERS,
        headers: HEADERS,
        responses: RESPONSES,
      },
      security: SECURITY.user,
      webhooks,
    },
    transform: ({ schema, url, route }: { schema: FastifySchema; url: string; route: RouteOptions }) => {
      const auth = (route.config as { auth?: Auth } | undefined)?.auth ?? 'user';
      const compat = compatKeyOfRoute(route);
      const extra: Json = { security: SECURITY[auth] };
      const documented = route.config?.documentedBodies;
      if (documented) extra.body = { content: { ...(schema.body as { content?: Json } | undefined)?.content, ...documented } };
      if (compat) {
        extra.deprecated = true;
        const path = url.replace(/:(\w+)/g, '{$1}');
        for (const method of [route.method].flat()) deprecatedRoutes.set(`${method.toLowerCase()} ${path}`, compat);
      }
      return { schema: { ...schema, ...extra } as FastifySchema, url };
    },
    transformObject: ({ openapiObject }: { openapiObject: Json }) => contractOf(openapiObject, deprecatedRoutes),
    // The document is built as plain JSON; the plugin's typings want a literal type for every enum-like member.
  } as unknown as FastifyDynamicSwaggerOptions;
}

/** `deprecatedRoute(deps, key)` tags its preHandler with the key it guards. */
function compatKeyOfRoute(route: RouteOptions): CompatKey | null {
  for (const hook of [route.preHandler ?? [], route.onRequest ?? []].flat()) {
    const key = (hook as { compatKey?: CompatKey }).compatKey;
    if (key) return key;
  }
  return null;
}

const WRITES = new Set(['post', 'put', 'patch', 'delete']);
const CONDITIONAL = new Set(['put', 'patch', 'delete']);
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** Every compat key used somewhere below `node` (following `$ref`s is not needed: markers are still inline). */
function compatKeysIn(node: unknown, into = new Set<CompatKey>()): Set<CompatKey> {
  if (Array.isArray(node)) for (const item of node) compatKeysIn(item, into);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node as Json)) {
      if (key === COMPAT_KEY) into.add(value as CompatKey);
      else compatKeysIn(value, into);
    }
  }
  return into;
}

/** What the service really answers around an operation, added to the operation the route produced. */
function decorate(path: string, method: string, op: Json, routeCompat: CompatKey | undefined): void {
  const security = (op.security as Json[] | undefined) ?? SECURITY.user;
  const authenticated = security.length > 0;
  const user = security === SECURITY.user || JSON.stringify(security) === JSON.stringify(SECURITY.user);
  const api = path.startsWith('/api/');
  const parameters = ((op.parameters as Json[] | undefined) ?? []).map((p) => {
    // A malformed id names no resource, like an unknown one: 404, so the document does not promise a 400 (decision 0151).
    if (p.in === 'path') return { ...p, schema: { type: 'string' }, description: p.description ?? 'Resource id (UUIDv7).' };
    if (p.in === 'query' && p.name === 'filters') return { ...p, style: 'deepObject', explode: true };
    return p;
  });
  if (api) {
    parameters.push(parameterRef('AcceptLanguage'), parameterRef('RequestId'));
    if (WRITES.has(method)) parameters.push(parameterRef('IdempotencyKey'));
    if (CONDITIONAL.has(method)) parameters.push(parameterRef('IfMatch'));
    if (method === 'get') parameters.push(parameterRef('IfNoneMatch'));
  }
  if (parameters.length) op.parameters = parameters;

  const body = op.requestBody as { required?: boolean; content?: Record<string, { schema?: Json }> } | undefined;
  const bodySchema = body?.content?.['application/json']?.schema;
  // A body whose every member is optional may be left out entirely (an action's `{}` or no body at all).
  if (body && bodySchema && !((bodySchema.required as unknown[] | undefined)?.length)) body.required = false;

  const compat = compatKeysIn(op);
  if (routeCompat) {
    compat.add(routeCompat);
    op[COMPAT_KEY] = routeCompat;
    op.description = [op.description, deprecatedItem(routeCompat, {}).description].filter(Boolean).join(' ');
  }
  const responses = (op.responses ?? {}) as Record<string, Json>;
  for (const [status, response] of Object.entries(responses)) {
    const headers: Json = { 'x-request-id': headerRef('RequestId') };
    if (user) Object.assign(headers, { 'RateLimit-Limit': headerRef('RateLimitLimit'), 'RateLimit-Remaining': headerRef('RateLimitRemaining'), 'RateLimit-Reset': headerRef('RateLimitReset') });
    if (status.startsWith('2')) {
      if (api && method === 'get') headers.ETag = headerRef('ETag');
      const listed = parameters.some((p) => p.name === 'cursor');
      if (listed || compat.size) headers.Link = headerRef('Link');
      if (compat.size) headers.Deprecation = headerRef('Deprecation');
      if ([...compat].some((key) => deprecationHeaders(key).sunset)) headers.Sunset = headerRef('Sunset');
    }
    if (response.description === 'Default Response') response.description = status.startsWith('2') ? 'Success' : 'Answer';
    response.headers = { ...headers, ...((response.headers as Json | undefined) ?? {}) };
  }
  const add = (status: string, name: keyof typeof RESPONSES) => {
    responses[status] ??= responseRef(name);
  };
  if (api && method === 'get') responses['304'] = { description: 'Not modified (`If-None-Match` matched).', headers: { ETag: headerRef('ETag'), 'x-request-id': headerRef('RequestId') } };
  add('400', 'BadRequest');
  if (authenticated) add('401', 'Unauthenticated');
  if ((user && !ANY_ROLE.has(`${method} ${path}`)) || SAME_ORIGIN_ONLY.has(`${method} ${path}`)) add('403', 'Forbidden');
  if (path.includes('{') || compat.size || (authenticated && !user)) add('404', 'NotFound');
  if (WRITES.has(method)) add('409', 'Conflict');
  if (CONDITIONAL.has(method)) add('412', 'PreconditionFailed');
  if (body) {
    add('413', 'PayloadTooLarge');
    add('415', 'UnsupportedMediaType');
  }
  if (body || WRITES.has(method)) add('422', 'Unprocessable');
  if (user) add('429', 'TooManyRequests');
  if (path.startsWith('/api/tracking/')) {
    // The recipient's public routes: limited per address, and a link past its time to live is gone (decision 1100).
    add('410', 'Gone');
    add('429', 'TooManyRequestsFromAddress');
  }
  add('500', 'InternalError');
  op.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

/** Public operations that still refuse a browser's cross-site request (403 `cross_site_request`, decision 0140). */
const SAME_ORIGIN_ONLY = new Set(['post /api/session', 'delete /api/session']);

/** Operations every role may call: no 403 to document. */
const ANY_ROLE = new Set(['get /api/user', 'get /api/user/permissions', 'post /api/refresh_token']);

export function contractOf(doc: Json, deprecatedRoutes: ReadonlyMap<string, CompatKey> = new Map()): Json {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Json>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) if (item[method]) decorate(path, method, item[method], deprecatedRoutes.get(`${method} ${path}`));
  }
  // /metrics is the Prometheus text exposition format, not JSON.
  const metrics = paths['/metrics']?.get?.responses as Record<string, Json> | undefined;
  if (metrics?.['200']) metrics['200'].content = { 'text/plain': { schema: { type: 'string' } } };
  hoistComponents(doc);
  composeExamples(doc);
  return vendorKeywords(doc) as Json;
}

/** Our own validation keywords are not JSON Schema: in the document they become vendor extensions (`x-…`). */
const OWN_KEYWORDS: Record<string, string> = { maxSerializedBytes: 'x-max-serialized-bytes' };

function vendorKeywords(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(vendorKeywords);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node as Json).map(([key, value]) => [OWN_KEYWORDS[key] ?? key, vendorKeywords(value)]));
}
