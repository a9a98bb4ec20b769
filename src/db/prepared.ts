// Hot statements built once: Drizzle assembles the SQL text on every call (per-value checks, column lists), which
// costs more CPU than the database's own work for a primary-key read. A prepared query keeps the text and, on
// PostgreSQL, is parsed and planned once per connection (a named statement).
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { isTransaction, type Queryable } from './client.ts';

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
