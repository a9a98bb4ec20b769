// Several modules' reads in one statement. Each module describes its read as a part: a scalar subquery that yields
// one row (or an array of rows) as JSON, and how that JSON becomes its row type again. A request that reads a few
// small things before it writes then pays one round trip instead of one per read.
import { sql, type InferSelectModel, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from './client.ts';
import { columnsOf } from './json-insert.ts';
import { prepareSql, runPrepared } from './prepared.ts';

/** One read of a combined statement: its SQL (yielding JSON) and the decoding of that JSON. */
export interface JsonPart<T> {
  sql: SQL;
  decode(json: unknown): T;
}

/**
 * A row that row_to_json or json_agg wrote, as the table's row type: JSON keys are column names, and each value goes
 * through the column's own mapping (timestamps become Dates; JSON, arrays and numbers arrive already typed).
 */
export function rowFromJson<T extends PgTable>(table: T, json: Record<string, unknown>): InferSelectModel<T> {
  const row: Record<string, unknown> = {};
  for (const [key, column] of columnsOf(table)) {
    const value = json[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as InferSelectModel<T>;
}

/** The one row of `table` matching `where`, or null. */
export function oneRow<T extends PgTable>(table: T, where: SQL | undefined): JsonPart<InferSelectModel<T> | null> {
  return {
    sql: sql`(SELECT row_to_json(${table}) FROM ${table} WHERE ${where})`,
    decode: (json) => (json ? rowFromJson(table, json as Record<string, unknown>) : null),
  };
}

/** Every row of `table` matching `where`, in no particular order. */
export function manyRows<T extends PgTable>(table: T, where: SQL | undefined): JsonPart<InferSelectModel<T>[]> {
  return {
    sql: sql`(SELECT coalesce(json_agg(${table}), '[]'::json) FROM ${table} WHERE ${where})`,
    decode: (json) => (json as Record<string, unknown>[]).map((row) => rowFromJson(table, row)),
  };
}

type Decoded<P> = { [K in keyof P]: P[K] extends JsonPart<infer T> ? T : never };

/** `parts` as one SELECT: each part's JSON in its own column. */
export function combinedRead(parts: Record<string, JsonPart<unknown>>): SQL {
  return sql`SELECT ${sql.join(Object.keys(parts).map((key, i) => sql`${parts[key]!.sql} AS ${sql.raw(`p${i}`)}`), sql`, `)}`;
}

/** The row of combinedRead(parts), decoded part by part. */
export function decodeCombined<P extends Record<string, JsonPart<unknown>>>(parts: P, row: Record<string, unknown> | undefined): Decoded<P> {
  return Object.fromEntries(Object.keys(parts).map((key, i) => [key, parts[key]!.decode(row?.[`p${i}`])])) as Decoded<P>;
}

/** The first row of a statement's result, however the driver shapes it (node-postgres `{ rows }`, an array otherwise). */
export function firstRow<R>(result: unknown): R | undefined {
  return (Array.isArray(result) ? result : (result as { rows: R[] }).rows)[0] as R | undefined;
}

/**
 * Runs `parts` as one statement, prepared once under `name` (the parts' shape must not vary between calls), with
 * the placeholders' `params`.
 */
export async function readTogether<P extends Record<string, JsonPart<unknown>>>(
  q: Queryable,
  name: string,
  parts: P,
  params: Record<string, unknown>,
): Promise<Decoded<P>> {
  const result = await runPrepared(q, name, (q) => prepareSql(q, name, combinedRead(parts)), params);
  return decodeCombined(parts, firstRow<Record<string, unknown>>(result));
}
