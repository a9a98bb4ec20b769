// AppError and the problem+json (RFC 9457) shape every failure is answered with.
import { hasMessage, t, translate, type Lang, type Messages } from './i18n.ts';

export interface FieldError {
  pointer: string;
  code: string;
  detail: string;
  /** For query-string errors: the parameter as written, e.g. `filters[role]`. */
  parameter?: string;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  error_code: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}

/** A detail is plain text or a message key (localized when the response is written). */
export type Detail = string | { key: string; params?: Record<string, string | number> };

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detailText: Detail,
    readonly errors: FieldError[] = [],
    readonly extensions: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detailText === 'string' ? detailText : detailText.key);
    this.name = 'AppError';
  }
}

const TITLES: Record<string, string> = {
  malformed_request: 'Malformed request',
  unsupported_media_type: 'Unsupported media type',
  parameter_unknown: 'Unknown parameter',
  parameter_invalid: 'Invalid parameter',
  validation_failed: 'Validation failed',
  unauthenticated: 'Unauthenticated',
  forbidden: 'Forbidden',
  cross_site_request: 'Cross-site request',
  not_found: 'Not found',
  removed: 'Removed',
  invalid_transition: 'Invalid transition',
  precondition_failed: 'Precondition failed',
  idempotency_key_reused: 'Idempotency key reused',
  idempotency_key_in_use: 'Idempotency key in use',
  rate_limited: 'Too many requests',
  payload_too_large: 'Payload too large',
  header_fields_too_large: 'Request header fields too large',
  internal_error: 'Internal error',
  database_unavailable: 'Database unavailable',
};

const titleOf = (code: string): string =>
  TITLES[code] ?? code.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

export function toProblem(err: AppError, lang: Lang): Problem {
  const detail = typeof err.detailText === 'string' ? translate(lang, err.detailText) : t(lang, err.detailText.key, err.detailText.params);
  // Field details are written in English where each rule lives and translated here, like the top-level detail
  // (decision 0156); one already written in the caller's language passes unchanged.
  return {
    type: `https://tourbook.dev/errors/${err.code}`,
    title: titleOf(err.code),
    status: err.status,
    detail,
    error_code: err.code,
    ...(err.errors.length ? { errors: err.errors.map((error) => ({ ...error, detail: translate(lang, error.detail) })) } : {}),
    ...err.extensions,
  };
}

export const messages: Messages = {
  'error.not_found': { en: 'The {resource} does not exist or is not visible to you.', de: '{resource} existiert nicht oder ist für Sie nicht sichtbar.' },
  'error.forbidden': { en: 'Your role may not do this.', de: 'Ihre Rolle darf dies nicht tun.' },
  'error.unauthenticated': { en: 'A valid API key or access token is required.', de: 'Ein gültiger API-Schlüssel oder Zugriffstoken ist erforderlich.' },
  'error.validation_failed': { en: 'The request body is not valid.', de: 'Der Anfragetext ist ungültig.' },
  'error.internal': { en: 'Something went wrong on our side. Quote the request id when you report it.', de: 'Bei uns ist ein Fehler aufgetreten. Nennen Sie bei einer Meldung die Request-ID.' },
  'error.invalid_transition': { en: 'The {resource} cannot go from {from} to {to}.', de: '{resource} kann nicht von {from} zu {to} wechseln.' },
  'error.database_unavailable': {
    en: 'The database is not reachable at the moment (a restart or a failover). Send the request again after {seconds} s (a create with the same Idempotency-Key).',
    de: 'Die Datenbank ist gerade nicht erreichbar (Neustart oder Umschaltung). Senden Sie die Anfrage in {seconds} s erneut (ein Anlegen mit demselben Idempotency-Key).',
  },
};

export const notFound = (resource: string): AppError =>
  new AppError(404, 'not_found', { key: 'error.not_found', params: { resource } });

export const forbidden = (detail: Detail = { key: 'error.forbidden' }): AppError => new AppError(403, 'forbidden', detail);

export const unauthenticated = (): AppError => new AppError(401, 'unauthenticated', { key: 'error.unauthenticated' });

export const unprocessable = (code: string, detail: Detail, errors: FieldError[] = [], extensions: Record<string, unknown> = {}): AppError =>
  new AppError(422, code, detail, errors, extensions);

/** 422 validation_failed for one or more fields of the body. */
export const invalidFields = (errors: FieldError[], detail: Detail = { key: 'error.validation_failed' }): AppError =>
  new AppError(422, 'validation_failed', detail, errors);

/** An id inside the body that does not exist or is not visible to the caller. */
export const unknownReference = (pointer: string, resource: string): AppError =>
  invalidFields([{ pointer, code: 'unknown_reference', detail: `No ${resource} with this id is visible to you.` }]);

export const conflict = (code: string, detail: Detail, extensions: Record<string, unknown> = {}): AppError =>
  new AppError(409, code, detail, [], extensions);

export const invalidTransition = (resource: string, from: string, to: string): AppError =>
  new AppError(409, 'invalid_transition', { key: 'error.invalid_transition', params: { resource, from, to } }, [], { from, to });

/** `filters[role]` → `/filters/role`: a query parameter's pointer, like the ones query-string validation reports. */
const queryPointer = (parameter: string): string => `/${parameter.replace(/\[([^\]]*)\]/g, '/$1')}`;

/** 400 for a query parameter (pointer `/cursor`, `/filters/role`) or, with `in: 'header'`, a request header (its name). */
export const badParameter = (
  code: 'parameter_unknown' | 'parameter_invalid',
  parameter: string,
  detail: string,
  where: { in: 'query' | 'header' } = { in: 'query' },
): AppError => {
  const pointer = where.in === 'query' ? queryPointer(parameter) : parameter;
  return new AppError(400, code, detail, [{ pointer, code, detail, parameter }], { parameter });
};

/** Seconds a client waits before it sends a request again that met an unavailable database. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** 503 with Retry-After: the database is away; the request may be sent again as it is (decision 1400). */
export const databaseUnavailableError = (): AppError =>
  new AppError(503, 'database_unavailable', { key: 'error.database_unavailable', params: { seconds: DATABASE_RETRY_AFTER_SECONDS } }, [], {}, {
    'retry-after': String(DATABASE_RETRY_AFTER_SECONDS),
  });

export { hasMessage };
