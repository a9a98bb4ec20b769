// Request validation: strict Ajv for bodies (no coercion, no silent stripping), lenient coercion for query strings.
import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { AppError, type FieldError } from './errors.ts';

// ajv-formats ships CommonJS with a default export; NodeNext sees the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, removeAdditional: false, useDefaults: true, ...options });
  addFormats(ajv);
  return ajv;
}

const bodyAjv = makeAjv({ coerceTypes: false });
const queryAjv = makeAjv({ coerceTypes: 'array' });

const pointerSegment = (key: string | number) => String(key).replace(/~/g, '~0').replace(/\//g, '~1');

/** The pointer of the first string (value or key) holding U+0000, which PostgreSQL text and JSON cannot store. */
export function nulPointer(value: unknown, pointer = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? pointer : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, inner] of Object.entries(value)) {
    const at = `${pointer}/${pointerSegment(key)}`;
    if (key.includes('\u0000')) return at;
    const found = nulPointer(inner, at);
    if (found !== null) return found;
  }
  return null;
}

type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/**
 * Compiled on a route's first request, not at start-up: compiling every route's schemas up front was most of the time
 * from `listen` to ready (decision 0130). ajv caches by schema, so a route compiles once.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  let validate: Validate | null = null;
  // Refused here with its pointer, not by the database as an internal error.
  const checked: Validate = (data) => {
    const nul = nulPointer(data);
    if (nul !== null) {
      checked.errors = [{ keyword: 'nul', instancePath: nul, schemaPath: '', params: {}, message: 'contains a NUL character (U+0000)' }];
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
  nul: 'invalid_value',
};

/** One entry per field, JSON pointer first; the first error of a field wins (unions report many). */
export function fieldErrors(errors: ErrorObject[]): FieldError[] {
  const byPointer = new Map<string, FieldError>();
  for (const error of errors) {
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if') continue;
    let pointer = error.instancePath;
    if (error.keyword === 'required') pointer += `/${String(error.params.missingProperty)}`;
    if (error.keyword === 'additionalProperties') pointer += `/${String(error.params.additionalProperty)}`;
    const code = CODES[error.keyword] ?? error.keyword;
    const detail =
      error.keyword === 'required'
        ? 'is required'
        : error.keyword === 'additionalProperties'
          ? 'is not a known field'
          : (error.message ?? 'is invalid');
    if (!byPointer.has(pointer || '/')) byPointer.set(pointer || '/', { pointer: pointer || '', code, detail });
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
