// Many rows into one table in few statements: each chunk is one JSON parameter expanded by json_to_recordset, the
// same on PGlite and PostgreSQL (a statement's cost is its round trip and its parameters, not its rows).
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';

/** A column of the target table and its SQL type, as json_to_recordset needs it. */
export type BulkColumn = readonly [name: string, type: string];

const CHUNK = 5_000;

/** Inserts `rows` (objects keyed by column name) into `table`; returns how many it inserted. */
export async function bulkInsert(q: Queryable, table: string, columns: readonly BulkColumn[], rows: readonly Record<string, unknown>[]): Promise<number> {
  const names = columns.map(([name]) => `"${name}"`).join(', ');
  const record = columns.map(([name, type]) => `"${name}" ${type}`).join(', ');
  for (let start = 0; start < rows.length; start += CHUNK) {
    const chunk = JSON.stringify(rows.slice(start, start + CHUNK));
    await q.execute(sql`INSERT INTO ${sql.identifier(table)} (${sql.raw(names)}) SELECT ${sql.raw(names)} FROM json_to_recordset(${chunk}::json) AS x(${sql.raw(record)})`);
  }
  return rows.length;
}
