// Keyset pagination: opaque cursors, `meta {next_cursor, has_more}` and the Link rel="next" header.
import { component, withExample } from './openapi-components.ts';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { badParameter } from './errors.ts';

export const PaginationQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25, description: 'Page size (1–100).' })),
  cursor: Type.Optional(Type.String({ maxLength: 512, description: 'Opaque cursor from `meta.next_cursor`.' })),
};

export const PageMeta = component(
  'PageMeta',
  withExample(
    Type.Object({
      next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last page.' }),
      has_more: Type.Boolean(),
    }),
    { next_cursor: 'WyIwMTkzYjJlNC03YzFhLTdkMmUtOWY0MC0wYzFkMmUzZjRhNWIiXQ', has_more: true },
  ),
);

/** A cursor carries the sort key of the last row seen: `[value…, id]`. */
export type CursorKey = (string | number | null)[];

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor(cursor: string | undefined, arity = 1): CursorKey | null {
  if (cursor === undefined) return null;
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(key) && key.length === arity && key.every((v) => v === null || ['string', 'number'].includes(typeof v))) {
      return key as CursorKey;
    }
  } catch {
    // fall through to the error below
  }
  throw badParameter('parameter_invalid', 'cursor', 'The cursor is not one this API issued.');
}

export interface Page<T> {
  items: T[];
  meta: { next_cursor: string | null; has_more: boolean };
}

/** Callers fetch `limit + 1` rows; the extra row only tells whether there is a next page. */
export function toPage<T>(rows: T[], limit: number, keyOf: (row: T) => CursorKey): Page<T> {
  const hasMore = rows.length > limit;
  const items = hasMore ? rows.slice(0, limit) : rows;
  const last = items[items.length - 1];
  return { items, meta: { next_cursor: hasMore && last ? encodeCursor(keyOf(last)) : null, has_more: hasMore } };
}

/**
 * Adds `Link: <…>; rel="next"` with the request's own query and the next cursor, keeping any link already set (a
 * deprecated item's `rel="successor-version"` must survive on a page that has a next one).
 */
export function setNextLink(request: FastifyRequest, reply: FastifyReply, nextCursor: string | null): void {
  if (!nextCursor) return;
  const url = new URL(request.url, 'http://placeholder');
  url.searchParams.set('cursor', nextCursor);
  const next = `<${url.pathname}${url.search}>; rel="next"`;
  const existing = reply.getHeader('link');
  reply.header('link', existing === undefined ? next : `${[existing].flat().join(', ')}, ${next}`);
}
