// Validation messages: one clear entry per real problem, unions reported by the branch the client meant.
import { Type } from '@sinclair/typebox';
import type { FastifySchema } from 'fastify';
import { describe, expect, it } from 'vitest';
import { StringEnum } from './openapi-components.ts';
import { Nullable } from './schemas.ts';
import { fieldErrors, validatorCompiler } from './validation.ts';

const strict = { additionalProperties: false };
const Id = Type.String({ format: 'uuid' });
const Ids = Type.Array(Id, { minItems: 1 });
/** The shapes the API really uses: a `{stop_ids} | {booking_ids}` body, a nullable money object, enums both ways. */
const Body = Type.Object(
  {
    merge: Type.Optional(Type.Union([Type.Object({ stop_ids: Ids }, strict), Type.Object({ booking_ids: Ids }, strict)])),
    tip: Type.Optional(Nullable(Type.Object({ amount: Type.Integer({ minimum: 0 }), currency: Type.String({ pattern: '^[A-Z]{3}$' }) }, strict))),
    outcome: Type.Optional(StringEnum(['skip_recovery', 'return_now'])),
    view: Type.Optional(Type.Union([Type.Literal('standard'), Type.Literal('compact')])),
    name: Type.Optional(Type.String({ minLength: 1 })),
  },
  strict,
);

const validate = validatorCompiler({ schema: Body, httpPart: 'body', method: 'POST', url: '/x' } as unknown as FastifySchema & { schema: object; httpPart: string; method: string; url: string });
const errorsOf = (body: unknown) => {
  const check = validate as unknown as ((data: unknown) => boolean) & { errors: Parameters<typeof fieldErrors>[0] };
  expect(check(body)).toBe(false);
  return fieldErrors(check.errors);
};

describe('validation messages', () => {
  it.each([
    ['an empty merge: one entry naming both ways', { merge: {} }, [{ pointer: '/merge/stop_ids', code: 'required', detail: 'is required (or send booking_ids instead)' }]],
    ['a bad stop id: not an unknown field, not a missing booking_ids', { merge: { stop_ids: ['x'] } }, [{ pointer: '/merge/stop_ids/0', code: 'invalid_format', detail: 'must match format "uuid"' }]],
    ['a bad booking id: the booking_ids branch', { merge: { booking_ids: [7] } }, [{ pointer: '/merge/booking_ids/0', code: 'invalid_type', detail: 'must be string' }]],
    ['a negative tip: too small, without "must be null"', { tip: { amount: -1, currency: 'EUR' } }, [{ pointer: '/tip/amount', code: 'too_small', detail: 'must be >= 0' }]],
    ['a tip of the wrong type: one entry', { tip: 'lots' }, [{ pointer: '/tip', code: 'invalid_type', detail: 'must be object' }]],
    ['an enum: the allowed values', { outcome: 'explode' }, [{ pointer: '/outcome', code: 'invalid_value', detail: 'must be one of: "skip_recovery", "return_now"' }]],
    ['a literal union: the allowed values, once', { view: 'tiny' }, [{ pointer: '/view', code: 'invalid_value', detail: 'must be one of: "standard", "compact"' }]],
    ['an unknown member: its own pointer', { nmae: 'x' }, [{ pointer: '/nmae', code: 'unknown_field', detail: 'is not a known field' }]],
    ['two real problems: two entries', { name: '', outcome: 'x' }, [
      { pointer: '/outcome', code: 'invalid_value', detail: 'must be one of: "skip_recovery", "return_now"' },
      { pointer: '/name', code: 'too_short', detail: 'must NOT have fewer than 1 characters' },
    ]],
  ])('%s', (_name, body, expected) => {
    expect(errorsOf(body)).toEqual(expect.arrayContaining(expected));
    expect(errorsOf(body)).toHaveLength(expected.length);
  });
});
