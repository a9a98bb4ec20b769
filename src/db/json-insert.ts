// Several tables' inserts in one statement, each table's rows as one JSON parameter (a write's cost is its round trips
// and its per-value query building, not the rows). Used where a request writes many rows of many tables at once.
import { getTableColumns, getTableName, is, sql, SQL, type Column, type InferInsertModel, type InferSelectModel } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from './client.ts';
import { prepareSql, runPrepared } from './prepared.ts';

/**
 * The row as the table stores it: every column present, the missing ones filled with their JS default or null. A
 * missing NOT NULL column without a JS default is a programming error (its SQL default would be skipped).
 */
export function completeRow<T extends PgTable>(table: T, row: InferInsertModel<T>): InferSelectModel<T> {
  const complete: Record<string, unknown> = {};
  const given = row as Record<string, unknown>;
  for (const [key, column] of columnsOf(table)) {
    if (given[key] !== undefined) complete[key] = given[key];
    else if (column.defaultFn) complete[key] = column.defaultFn();
    else if (column.hasDefault && !is(column.default, SQL)) complete[key] = structuredClone(column.default);
    else if (!column.notNull) complete[key] = null;
    else throw new Error(`completeRow: ${getTableName(table)}.${column.name} has no value and no JS default`);
  }
  return complete as InferSelectModel<T>;
}

/** Rows of one table, for `insertAll`. */
export interface TableRows {
  table: PgTable;
  rows: Record<string, unknown>[];
}

export const rowsOf = <T extends PgTable>(table: T, rows: InferSelectModel<T>[]): TableRows => ({ table, rows });

const columnCache = new WeakMap<PgTable, [string, Column][]>();
/** The table's columns with their JS keys, read from the Drizzle table once. */
export function columnsOf(table: PgTable): [string, Column][] {
  let columns = columnCache.get(table);
  if (!columns) columnCache.set(table, (columns = Object.entries(getTableColumns(table))));
  return columns;
}

/** Per column: JS key, column name, and how a value becomes JSON (JSON and array columns stay as they are). */
type Converter = [key: string, name: string, toJson: ((value: unknown) => unknown) | null];
const converterCache = new WeakMap<PgTable, Converter[]>();
function convertersOf(table: PgTable): Converter[] {
  let converters = converterCache.get(table);
  if (!converters) {
    converters = columnsOf(table).map(([key, column]): Converter => {
      // json_populate_recordset reads JSON arrays into PostgreSQL arrays; other values take the driver's mapping.
      const raw = column.dataType === 'json' || column.dataType === 'array';
      return [key, column.name, raw ? null : (value) => column.mapToDriverValue(value)];
    });
    converterCache.set(table, converters);
  }
  return converters;
}

/** The JSON parameter of one table's rows: column names as keys. */
export function jsonParameter({ table, rows }: TableRows): string {
  const converters = convertersOf(table);
  return JSON.stringify(
    rows.map((row) => {
      const record: Record<string, unknown> = {};
      for (const [key, name, toJson] of converters) {
        const value = row[key];
        record[name] = value === null || value === undefined || !toJson ? value : toJson(value);
      }
      return record;
    }),
  );
}

/**
 * `INSERT INTO t (every column) SELECT … FROM json_populate_recordset(NULL::t, $n)`: one parameter for all rows. With
 * `after`, the name of an earlier CTE of the statement, the rows are inserted only when that CTE yielded a row.
 */
export function insertFromJson(table: PgTable, parameter: string, after?: string): SQL {
  const names = sql.raw(columnsOf(table).map(([, c]) => `"${c.name}"`).join(', '));
  const name = sql.raw(`"${getTableName(table)}"`);
  const gate = after ? sql.raw(`, (SELECT 1 FROM ${after} LIMIT 1) AS gate`) : sql``;
  return sql`INSERT INTO ${name} (${names}) SELECT ${names} FROM json_populate_recordset(NULL::${name}, ${sql.placeholder(parameter)}::json)${gate}`;
}

/**
 * The inserts of `parts` as one statement (data-modifying CTEs), so they commit or fail together even outside a
 * transaction. `name` identifies the statement's shape (the same tables in the same order): it is prepared once. With
 * `via`, the statement calls that database function with each part's JSON in order instead: a function keeps its
 * plans per server connection, also where every statement goes unnamed (a transaction pooler, decision 1452).
 */
export async function insertAll(q: Queryable, name: string, parts: TableRows[], via?: string): Promise<void> {
  const statement = () =>
    via
      ? sql`SELECT ${sql.raw(via)}(${sql.join(parts.map((_, i) => sql`${sql.placeholder(`p${i}`)}::json`), sql`, `)})`
      : sql`WITH ${sql.join(parts.map((part, i) => sql`${sql.raw(`w${i}`)} AS (${insertFromJson(part.table, `p${i}`)})`), sql`, `)} SELECT 1`;
  await runPrepared(q, name, (q) => prepareSql(q, name, statement()), Object.fromEntries(parts.map((part, i) => [`p${i}`, jsonParameter(part)])));
}
