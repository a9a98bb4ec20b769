// Hot statements built once: Drizzle assembles the SQL text on every call (per-value checks, column lists), which
// costs more CPU than the database's own work for a primary-key read. A prepared query keeps the text and, on
// PostgreSQL, is parsed and planned once per connection (a named statement).
import { Placeholder, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { QueryResultRow } from 'pg';
import { isTransaction, type Database, type Queryable } from './client.ts';

interface Executable<R> {
  execute(params?: Record<string, unknown>): Promise<R>;
}

const byHandle = new WeakMap<object, Map<string, Executable<unknown>>>();

/**
 * The query `name` prepared on `q` (built by `build` the first time), run with `params`. Only the database handle
 * keeps it: a transaction is short-lived, so inside one the query is built and run as usual.
 */
export function runPrepared<R>(q: Queryable, name: string, build: (q: Queryable) => Executable<R>, params: Record<string, unknown>): Promise<R> {
  if (isTransaction(q)) return build(q).execute(params);
  let prepared = byHandle.get(q);
  if (!prepared) byHandle.set(q, (prepared = new Map()));
  let query = prepared.get(name) as Executable<R> | undefined;
  if (!query) prepared.set(name, (query = build(q)));
  return query.execute(params);
}

const dialect = new PgDialect();

/** A raw SQL statement (with `sql.placeholder`s) prepared like a query builder's `.prepare(name)`. */
export function prepareSql(q: Queryable, name: string, query: SQL): Executable<unknown> {
  return q._.session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false);
}

/** A statement compiled once to text with positional parameters, each slot a named placeholder or a fixed value. */
export interface RawStatement {
  name: string;
  text: string;
  slots: ({ name: string } | { value: unknown })[];
}

/** Compiles `query` (with `sql.placeholder`s) once, for runRaw. */
export function rawStatement(name: string, query: SQL): RawStatement {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return { name, text, slots: params.map((p) => (p instanceof Placeholder ? { name: p.name as string } : { value: p })) };
}

/**
 * Runs `statement` on the driver itself, bypassing Drizzle's per-call placeholder filling and result mapping (measured
 * on the position path: `fillPlaceholders`, `is()` and the session wrapper cost more than the values' own encoding).
 * Values go as they are (Dates, numbers, booleans, strings, null); rows come back as the driver parses them, so a hot
 * statement returns only text, numbers and JSON. PostgreSQL prepares it once per connection under `name`, PGlite once
 * per instance (pglite-statements.ts).
 */
export async function runRaw<R>(database: Pick<Database, 'pool' | 'pglite'>, statement: RawStatement, params: Record<string, unknown>): Promise<R[]> {
  const values = statement.slots.map((slot) => ('name' in slot ? (params[slot.name] ?? null) : slot.value));
  if (database.pglite) return (await database.pglite.query<R>(statement.text, values)).rows;
  if (database.pool) return (await database.pool.query<R & QueryResultRow>({ name: statement.name, text: statement.text, values })).rows;
  throw new Error('runRaw needs a PGlite instance or a PostgreSQL pool');
}
