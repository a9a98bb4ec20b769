// The OpenAPI components every operation shares (Problem, error responses, header parameters, response headers), and
// the pass that turns schemas marked with `component(name, …)` into `components.schemas` and `$ref`s.
import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** The vendor key marking a wire schema as a named component; Ajv and fast-json-stringify ignore it (decision 0150). */
export const COMPONENT_KEY = 'x-component';

/** Names a schema: the document lists it once under `components.schemas` and refers to it everywhere else. */
export const component = <T extends TSchema>(name: string, schema: T): T => ({ ...schema, [COMPONENT_KEY]: name });

/** The vendor key of a schema that is validated elsewhere but documented as a named component (decision 0320). */
export const DOCUMENTED_AS_KEY = 'x-documented-as';

/**
 * A value the route accepts as is, to validate it later (a bulk item's `booking`, checked by its own route), while the
 * document and the typed client show it as the component `name`. Validation sees no keyword but the description.
 */
export const documentedAs = <T>(name: string, description: string) => Type.Unsafe<T>({ description, [DOCUMENTED_AS_KEY]: name });

/**
 * The example the document shows for this schema, typed by it (decision 0160). Bodies and resources carry one; the
 * document composes envelopes and list pages from them, and test/http/openapi-examples.test.ts validates them all.
 */
export const withExample = <T extends TSchema>(schema: T, example: Static<T>): T => ({ ...schema, examples: [example] });

/** The same enum on a response, typed as the plain string the code renders (rows hold text). */
export const EnumText = (schema: TSchema) => Type.Unsafe<string>(schema);

/** A closed set of strings: `enum` on the wire (generators make a union type), one component per set when named. */
export const StringEnum = <const T extends readonly string[]>(values: T, options: { description?: string; default?: T[number] } = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

const FieldError = component(
  'FieldError',
  Type.Object({
    pointer: Type.String({ description: 'JSON pointer into the body (`/booking/stops/0/type`), or the query parameter as written.' }),
    code: Type.String({ description: 'What is wrong: `required`, `unknown_field`, `invalid_value`, `unknown_reference`, …' }),
    detail: Type.String(),
    parameter: Type.Optional(Type.String({ description: 'For query-string errors: the parameter as written, e.g. `filters[role]`.' })),
  }),
);

/** RFC 9457 problem details with Tourbook's `error_code` and `errors` members (docs/api-guide.md "Errors"). */
export const Problem = component(
  'Problem',
  Type.Object(
    {
      type: Type.String({ format: 'uri', description: '`https://tourbook.dev/errors/<error_code>`' }),
      title: Type.String(),
      status: Type.Integer({ minimum: 400, maximum: 599 }),
      detail: Type.String({ description: 'Localized by `Accept-Language`.' }),
      error_code: Type.String({ description: 'Stable machine-readable code, e.g. `invalid_transition`, `validation_failed`.' }),
      errors: Type.Optional(Type.Array(FieldError, { description: 'One entry per field or parameter at fault.' })),
    },
    { additionalProperties: true, description: 'Further members depend on the code: `from`/`to`, `removed_on`/`successor`, `parameter`, `request_id`.' },
  ),
);

const header = (description: string, schema: Record<string, unknown> = { type: 'string' }) => ({ description, schema });

export const HEADERS = {
  RequestId: header('The request id (echoes a well-formed `x-request-id` of the request); quote it when reporting a problem.'),
  RateLimitLimit: header("The credential's bucket size (burst).", { type: 'integer' }),
  RateLimitRemaining: header('Requests left in the bucket now.', { type: 'integer' }),
  RateLimitReset: header('Seconds until the bucket is full again.', { type: 'integer' }),
  RetryAfter: header('Seconds to wait before the next request.', { type: 'integer' }),
  ETag: header('Weak entity tag of the representation; send it back in `If-None-Match` (GET) or `If-Match` (PUT/PATCH/DELETE).'),
  Link: header('`<…>; rel="next"` when there is a next page; `<…>; rel="successor-version"` for each deprecated item used.'),
  Deprecation: header('`@<unix seconds>` (RFC 9745): the response used a deprecated item.'),
  Sunset: header('HTTP-date (RFC 8594) when the deprecated item used goes away.'),
} as const;

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
export const headerRef = (name: keyof typeof HEADERS) => ref('headers', name);

export const PARAMETERS = {
  AcceptLanguage: {
    name: 'Accept-Language',
    in: 'header',
    description: 'Language of localized strings (error details, failure reasons): `en` (default) or `de`.',
    schema: { type: 'string', example: 'de' },
  },
  RequestId: {
    name: 'x-request-id',
    in: 'header',
    description: 'Your id for this request (`[A-Za-z0-9._:-]{1,128}`), echoed in the response and logs; one is made up otherwise.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    description: 'Makes the write safe to retry: a retry with the same key and body gets the stored answer (kept 24 h).',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    description: "Apply the change only if the resource's current `ETag` matches (412 `precondition_failed` otherwise). Never required.",
    schema: { type: 'string' },
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    description: 'Answer 304 without a body when the representation still has this `ETag`.',
    schema: { type: 'string' },
  },
} as const;
export const parameterRef = (name: keyof typeof PARAMETERS) => ref('parameters', name);

const problemResponse = (description: string, headers: Record<string, unknown> = {}) => ({
  description,
  headers: { 'x-request-id': headerRef('RequestId'), ...headers },
  content: { 'application/problem+json': { schema: ref('schemas', 'Problem') } },
});

export const RESPONSES = {
  BadRequest: problemResponse('`malformed_request` (body not JSON), `parameter_unknown` or `parameter_invalid` (query string, header, cursor).'),
  Unauthenticated: problemResponse('`unauthenticated`: no valid API key, access token or operator token.'),
  Forbidden: problemResponse("`forbidden`: the caller's role may never do this; `cross_site_request`: a write with the session cookie that a browser did not send from this origin."),
  NotFound: problemResponse(
    '`not_found`: absent, in another tenant, not visible to the caller, or not an id at all; `removed`: a removed route or one past an enforced sunset.',
  ),
  Conflict: problemResponse('`invalid_transition` (state conflict), `idempotency_key_in_use`, or another conflict named by `error_code`.'),
  PreconditionFailed: problemResponse('`precondition_failed`: `If-Match` does not match the current `ETag`.'),
  PayloadTooLarge: problemResponse('`payload_too_large`.'),
  UnsupportedMediaType: problemResponse('`unsupported_media_type`: send the body as `application/json`.'),
  Unprocessable: problemResponse(
    '`validation_failed` (one entry per field in `errors`), `idempotency_key_reused`, or a domain rule such as `outcome_not_available`.',
  ),
  TooManyRequests: problemResponse('`rate_limited`: the credential used up its bucket.', {
    'Retry-After': headerRef('RetryAfter'),
    'RateLimit-Limit': headerRef('RateLimitLimit'),
    'RateLimit-Remaining': headerRef('RateLimitRemaining'),
    'RateLimit-Reset': headerRef('RateLimitReset'),
  }),
  Gone: problemResponse('`tracking_expired`: the tracking link outlived its time to live after the delivery finished.'),
  TooManyRequestsFromAddress: problemResponse('`rate_limited`: the client address used up its bucket (public routes).', { 'Retry-After': headerRef('RetryAfter') }),
  InternalError: problemResponse('`internal_error`: quote the `request_id` member when reporting it.'),
} as const;
export const responseRef = (name: keyof typeof RESPONSES) => ref('responses', name);

type Json = Record<string, unknown>;

const canonical = (value: unknown): string => JSON.stringify(value, (_key, v: unknown) =>
  v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Json).sort(([a], [b]) => a.localeCompare(b))) : v,
);

/**
 * Replaces every schema marked with COMPONENT_KEY by a `$ref` and lists it once under `components.schemas`.
 * Two different schemas claiming one name is a programming error: it throws, and the OpenAPI tests fail.
 */
export function hoistComponents(doc: Json): void {
  const components = (doc.components ??= {}) as Json;
  const given = (components.schemas ?? {}) as Record<string, Json>;
  const schemas: Record<string, Json> = {};
  const seen = new Map<string, string>();
  const register = (name: string, schema: Json) => {
    const text = canonical(schema);
    const before = seen.get(name);
    if (before !== undefined && before !== text) throw new Error(`OpenAPI component ${name} is defined twice with different schemas`);
    seen.set(name, text);
    schemas[name] = schema;
  };
  /** The node with its marked descendants replaced; its own marker dropped. */
  const inner = (node: Json): Json => {
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) if (key !== COMPONENT_KEY) out[key] = visit(value);
    return out;
  };
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const documented = (node as Json)[DOCUMENTED_AS_KEY];
    if (typeof documented === 'string') return ref('schemas', documented);
    const out = inner(node as Json);
    const name = (node as Json)[COMPONENT_KEY];
    if (typeof name !== 'string') return out;
    register(name, out);
    return ref('schemas', name);
  };
  for (const key of Object.keys(doc)) if (key !== 'components') doc[key] = visit(doc[key]);
  for (const [key, value] of Object.entries(components)) if (key !== 'schemas') components[key] = visit(value);
  for (const [name, schema] of Object.entries(given)) register(name, inner(schema));
  components.schemas = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
}
