// The JSON body parser: nesting depth capped before parsing, strings checked after, an empty body read as none.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

/**
 * Deeper bodies are refused before JSON.parse: every later walk over the value (validation, the string check,
 * serialisation to jsonb) recurses, and 3,500 levels of `[` overflowed the stack as a 500. No request of the
 * contract nests deeper than ~8; 64 leaves room for metadata (decision 0110).
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether the JSON text nests objects/arrays deeper than `max` (strings skipped); one pass, no recursion. */
export function exceedsDepth(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}

/** One JSON pointer segment (RFC 6901): `~` → `~0`, `/` → `~1`. */
export const pointerSegment = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

// String.prototype.isWellFormed is in Node 20 (V8 11.3) but in TypeScript's es2024 lib, past our target.
const isWellFormed = (s: string): boolean => (s as string & { isWellFormed(): boolean }).isWellFormed();

/** Why a string cannot be stored, or null: U+0000 (PostgreSQL text and jsonb refuse it) or an unpaired surrogate. */
const stringProblem = (s: string): string | null =>
  s.includes('\u0000') ? 'contains a NUL character (U+0000)' : isWellFormed(s) ? null : 'contains an unpaired UTF-16 surrogate';

/**
 * The first string (value or key) that cannot be stored, or number that is not finite, with its JSON pointer. Lone surrogates reached
 * PostgreSQL's jsonb as a 500 and text columns as a silent U+FFFD: both are refused, wherever they are. Every body
 * passes through here, so the walk builds no pointer until it finds something (the path is kept as keys).
 */
export function malformedString(value: unknown): { pointer: string; detail: string } | null {
  const path: string[] = [];
  const detail = problemIn(value, path);
  return detail === null ? null : { pointer: path.map((key) => `/${pointerSegment(key)}`).join(''), detail };
}

/** What is wrong at or below `value`, or null; on a find, `path` holds the keys that lead to it. */
function problemIn(value: unknown, path: string[]): string | null {
  // 1e400 parses to Infinity: no field means that, and a schema without bounds would store it (or fail in SQL).
  if (typeof value === 'number') return Number.isFinite(value) ? null : 'is not a finite number';
  if (typeof value === 'string') return stringProblem(value);
  if (typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = problemIn(value[i], path);
      if (found !== null) {
        path.unshift(String(i));
        return found;
      }
    }
    return null;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const keyProblem = stringProblem(key);
    const found = keyProblem ? `its name ${keyProblem}` : problemIn((value as Record<string, unknown>)[key], path);
    if (found !== null) {
      path.unshift(key);
      return found;
    }
  }
  return null;
}

export const malformedStringError = (found: { pointer: string; detail: string }): AppError =>
  new AppError(422, 'validation_failed', { key: 'error.validation_failed' }, [{ pointer: found.pointer, code: 'invalid_value', detail: found.detail }]);

/** Whether a parsed value nests objects/arrays deeper than `max`; iterative, so a value of any depth is safe to ask. */
export function valueExceedsDepth(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [v, depth] = item;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

const tooDeep = (): AppError => new AppError(400, 'malformed_request', `The body nests deeper than ${MAX_JSON_DEPTH} levels.`);

/**
 * The parser's checks for JSON that reached a route another way (the `report` part of a multipart upload, which
 * @fastify/multipart parses itself): the same depth limit and the same refusal of unstorable strings (decision 0110).
 */
export function refuseHostileJson(value: unknown): void {
  if (valueExceedsDepth(value)) throw tooDeep();
  const found = malformedString(value);
  if (found) throw malformedStringError(found);
}

type JsonParser = (request: FastifyRequest, body: string, done: (err: Error | null, body?: unknown) => void) => void;

/**
 * Replaces Fastify's application/json parser (keeping its prototype-poisoning protection): depth first, then
 * parse, then the string check. An empty body means "no body", so bodiless actions accept what clients send
 * with a JSON content type and nothing after it; routes that need a body then refuse `undefined` in validation.
 */
export function registerJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error') as unknown as JsonParser;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    if (exceedsDepth(text)) return done(tooDeep());
    parse(request, text, (err, value) => {
      if (err) return done(err);
      const found = malformedString(value);
      if (found) return done(malformedStringError(found));
      done(null, value);
    });
  });
}

/** 422 for a body sent to a route that takes none: each member as an unknown field, any other value as the wrong type. */
export function strayBody(body: unknown): AppError {
  const members = typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.keys(body) : null;
  const errors = members
    ? members.map((key) => ({ pointer: `/${pointerSegment(key)}`, code: 'unknown_field', detail: 'is not a known field: this request takes no body' }))
    : [{ pointer: '', code: 'invalid_type', detail: 'this request takes no body' }];
  return new AppError(422, 'validation_failed', { key: 'error.validation_failed' }, errors);
}
