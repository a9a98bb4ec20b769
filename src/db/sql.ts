// Raw SQL helper: the same row array from both drivers (PGlite and node-postgres both answer `{rows}`).
import type { SQL } from 'drizzle-orm';
import type { Queryable } from './client.ts';

export async function queryRows<T>(q: Queryable, query: SQL): Promise<T[]> {
  const result = (await q.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
