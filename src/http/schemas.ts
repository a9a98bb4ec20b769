// Shared wire schema pieces: ids, timestamps, nullable, list envelopes.
import { Type, type TSchema } from '@sinclair/typebox';
import { PageMeta } from './pagination.ts';

export const Uuid = Type.String({ format: 'uuid' });
export const Timestamp = Type.String({ format: 'date-time' });
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
export const IdParams = Type.Object({ id: Uuid });

/** `{ <plural>: [...], meta: {next_cursor, has_more} }` */
export const ListOf = <T extends TSchema>(plural: string, item: T) =>
  Type.Object({ [plural]: Type.Array(item), meta: PageMeta });

/** A body wrapped in its singular resource name, no other members: `{"place": {...}}`. */
export const Wrapped = <T extends TSchema>(singular: string, inner: T) =>
  Type.Object({ [singular]: inner }, { additionalProperties: false });

/** The body of an action that takes none: a stray member is refused (422 `unknown_field`), like any other body's. */
export const EmptyBody = Type.Object({}, { additionalProperties: false });

/** Action routes take an optional body: a request without one is validated as `{}` (`null` is not "no body": refused). */
export const bodyOptional = async (request: { body: unknown }): Promise<void> => {
  if (request.body === undefined) request.body = {};
};
