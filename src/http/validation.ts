// Request validation: strict Ajv for bodies (no coercion, no silent stripping), lenient coercion for query strings.
import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { AppError, type FieldError } from './errors.ts';
import { malformedString, pointerSegment } from './json-body.ts';

// ajv-formats ships CommonJS with a default export; NodeNext sees the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, removeAdditional: false, useDefaults: true, ...options });
  addFormats(ajv);
  return ajv;
}

const bodyAjv = makeAjv({ coerceTypes: false });
const queryAjv = makeAjv({ coerceTypes: 'array' });

/**
 * RFC 3339 date-times PostgreSQL and JavaScript agree on: 1970-01-01 up to the end of 9999, in UTC. Year 0000
 * and dates past JavaScript's range were 500s from the database; nothing in a dispatch service is older than
 * the epoch (decision 0110).
 */
const EARLIEST_MS = 0;
const LATEST_MS = Date.UTC(10000, 0, 1);
export function isTimestampInRange(value: string): boolean {
  const ms = Date.parse(value);
  return Number.isFinite(ms) && ms >= EARLIEST_MS && ms < LATEST_MS;
}

function restrictDateTime(ajv: Ajv): void {
  const rfc3339 = ajv.formats['date-time'] as { validate: (s: string) => boolean; compare?: (a: string, b: string) => number | undefined };
  ajv.addFormat('date-time', { type: 'string', validate: (s: string) => rfc3339.validate(s) && isTimestampInRange(s), ...(rfc3339.compare ? { compare: rfc3339.compare } : {}) });
}
restrictDateTime(bodyAjv);
restrictDateTime(queryAjv);

/**
 * `maxSerializedBytes`: the UTF-8 size of the value as JSON. Free-form values (metadata) are bounded by what they
 * cost to store and to send back, which maxProperties and maxLength alone cannot bound (decision 0113).
 */
bodyAjv.addKeyword({
  keyword: 'maxSerializedBytes',
  schemaType: 'number',
  errors: false,
  validate: (max: number, data: unknown) => Buffer.byteLength(JSON.stringify(data) ?? '') <= max,
});

/** The pointer of the first string (value or key) that cannot be stored: U+0000 or an unpaired surrogate. */
export const malformedStringPointer = (value: unknown): string | null => malformedString(value)?.pointer ?? null;

type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/**
 * Compiled on a route's first request, not at start-up: compiling every route's schemas up front was most of the time
 * from `listen` to ready (decision 0130). ajv caches by schema, so a route compiles once.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  let validate: Validate | null = null;
  // Refused here with its pointer, not by the database as an internal error.
  const checked: Validate = (data) => {
    // Bodies were checked by the JSON parser (json-body.ts); query strings and path parameters are checked here.
    const found = httpPart === 'body' ? null : malformedString(data);
    if (found) {
      checked.errors = [{ keyword: 'string', instancePath: found.pointer, schemaPath: '', params: {}, message: found.detail }];
      return false;
    }
    validate ??= (httpPart === 'body' ? bodyAjv : queryAjv).compile(schema as object);
    const valid = validate(data);
    checked.errors = validate.errors ?? null;
    return valid;
  };
  return checked as ReturnType<FastifySchemaCompiler<unknown>>;
};

const CODES: Record<string, string> = {
  required: 'required',
  additionalProperties: 'unknown_field',
  type: 'invalid_type',
  format: 'invalid_format',
  enum: 'invalid_value',
  const: 'invalid_value',
  maxLength: 'too_long',
  minLength: 'too_short',
  maxItems: 'too_many',
  minItems: 'too_few',
  maximum: 'too_large',
  minimum: 'too_small',
  exclusiveMinimum: 'too_small',
  exclusiveMaximum: 'too_large',
  pattern: 'invalid_format',
  uniqueItems: 'duplicate',
  string: 'invalid_value',
  maxSerializedBytes: 'too_large',
  maxProperties: 'too_many',
};

/** Keywords that say the value is not of a union branch's shape at all (rather than a bad detail inside it). */
const SHAPE_KEYWORDS = new Set(['type', 'required', 'additionalProperties', 'const', 'enum']);

type Branch = { index: number; errors: ErrorObject[]; shape: number };

/** One error standing for a whole failed union whose branches all failed the same simple way, or null. */
function mergedUnionError(union: ErrorObject, tied: Branch[]): ErrorObject | null {
  const at = (e: ErrorObject) => e.instancePath === union.instancePath;
  const all = tied.flatMap((b) => b.errors);
  if (all.every((e) => at(e) && (e.keyword === 'const' || e.keyword === 'enum'))) {
    const allowed = all.flatMap((e) => (e.keyword === 'const' ? [e.params.allowedValue] : (e.params.allowedValues as unknown[])));
    return { ...union, keyword: 'enum', params: { allowedValues: [...new Set(allowed)] } };
  }
  if (tied.every((b) => b.errors.length === 1) && all.every((e) => at(e) && e.keyword === 'required')) {
    const [first, ...others] = all.map((e) => String(e.params.missingProperty));
    return { ...union, keyword: 'required', params: { missingProperty: first, alternatives: others } };
  }
  return null;
}

/**
 * A value failing a union (`anyOf`: nullable fields, `{stop_ids} | {booking_ids}`, literal unions) gets Ajv's errors
 * for every branch. Keep only the branch the client evidently meant — the one whose shape fits best, then the one with
 * fewest errors — so a negative tip is "too small", not also "must be null" (decision 0153).
 */
export function pruneUnionErrors(errors: ErrorObject[]): ErrorObject[] {
  let kept = errors;
  for (const union of errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')) {
    if (!kept.includes(union)) continue;
    const prefix = `${union.schemaPath}/`;
    const branches = new Map<number, Branch>();
    for (const error of kept) {
      if (!error.schemaPath.startsWith(prefix)) continue;
      const index = Number(error.schemaPath.slice(prefix.length).split('/')[0]);
      const branch = branches.get(index) ?? { index, errors: [], shape: 0 };
      branch.errors.push(error);
      if (error.instancePath === union.instancePath && SHAPE_KEYWORDS.has(error.keyword)) branch.shape++;
      branches.set(index, branch);
    }
    const ranked = [...branches.values()].sort((a, b) => a.shape - b.shape || a.errors.length - b.errors.length || a.index - b.index);
    const best = ranked[0];
    if (!best) continue;
    const tied = ranked.filter((b) => b.shape === best.shape && b.errors.length === best.errors.length);
    const replacement = (tied.length > 1 && mergedUnionError(union, tied)) || null;
    const keep = new Set(replacement ? [] : best.errors);
    kept = kept.flatMap((e) => {
      if (e === union) return replacement ? [replacement] : [];
      return e.schemaPath.startsWith(prefix) && !keep.has(e) ? [] : [e];
    });
  }
  return kept;
}

function detailOf(error: ErrorObject): string {
  switch (error.keyword) {
    case 'required': {
      const alternatives = (error.params.alternatives as string[] | undefined) ?? [];
      return alternatives.length ? `is required (or send ${alternatives.join(' or ')} instead)` : 'is required';
    }
    case 'additionalProperties':
      return 'is not a known field';
    case 'enum':
      return `must be one of: ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(error.params.allowedValue)}`;
    case 'maxSerializedBytes':
      return 'is too large when serialized as JSON';
    default:
      return error.message ?? 'is invalid';
  }
}

/** One entry per field, JSON pointer first; the first error of a field wins. */
export function fieldErrors(errors: ErrorObject[]): FieldError[] {
  const byPointer = new Map<string, FieldError>();
  for (const error of pruneUnionErrors(errors)) {
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if') continue;
    let pointer = error.instancePath;
    // Ajv escapes instancePath per RFC 6901 but not the property names it reports: `a/b~c` → `/a~1b~0c`.
    if (error.keyword === 'required') pointer += `/${pointerSegment(String(error.params.missingProperty))}`;
    if (error.keyword === 'additionalProperties') pointer += `/${pointerSegment(String(error.params.additionalProperty))}`;
    const code = CODES[error.keyword] ?? error.keyword;
    if (!byPointer.has(pointer || '/')) byPointer.set(pointer || '/', { pointer: pointer || '', code, detail: detailOf(error) });
  }
  return [...byPointer.values()];
}

/** `/filters/role` → `filters[role]`, the way the parameter was written in the query string. */
const parameterName = (pointer: string): string =>
  pointer
    .split('/')
    .filter(Boolean)
    .map((part, i) => (i === 0 ? part : `[${part}]`))
    .join('');

export function validationError(context: string, errors: ErrorObject[]): AppError {
  const fields = fieldErrors(errors);
  if (context === 'body') return new AppError(422, 'validation_failed', { key: 'error.validation_failed' }, fields);
  if (context === 'params') return new AppError(404, 'not_found', 'The resource does not exist or is not visible to you.');
  const unknown = fields.find((f) => f.code === 'unknown_field');
  const first = unknown ?? fields[0];
  const name = first ? parameterName(first.pointer) : 'query';
  const code = unknown ? 'parameter_unknown' : 'parameter_invalid';
  const detail = unknown ? `Unknown query parameter ${name}.` : `Query parameter ${name} ${first?.detail ?? 'is invalid'}.`;
  return new AppError(
    400,
    code,
    detail,
    fields.map((f) => ({ ...f, parameter: parameterName(f.pointer) })),
    { parameter: name },
  );
}

/**
 * Validates `data` against a body schema exactly as a route would (the same Ajv, defaults applied in place, the same
 * 422): for a body checked item by item rather than by its route, such as a bulk create's dry run (decision 0320).
 */
export function checkBody(schema: object, data: unknown): AppError | null {
  const validate = validatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '' }) as Validate;
  return validate(data) ? null : validationError('body', validate.errors ?? []);
}
