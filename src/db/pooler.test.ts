// Through a transaction pooler (decision 1450): statements go unnamed, LISTEN takes the direct pool, and the pooler
// setting cannot be given without a direct URL.
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { DEFAULT_POOL_TIMEOUTS, openPostgres } from './client.ts';
import { rawStatement, runRaw } from './prepared.ts';

const URL_A = 'postgres://tourbook@db.example:6432/tourbook';
const URL_B = 'postgres://tourbook@db.example:5000/tourbook';

describe('pooler configuration', () => {
  it('reads DATABASE_TRANSACTION_POOLER and DATABASE_DIRECT_URL', () => {
    const config = loadConfig({ DATABASE_URL: URL_A, DATABASE_DIRECT_URL: URL_B, DATABASE_TRANSACTION_POOLER: 'true' });
    expect(config.databaseTransactionPooler).toBe(true);
    expect(config.databaseDirectUrl).toBe(URL_B);
    expect(loadConfig({ DATABASE_URL: URL_A }).databaseTransactionPooler).toBe(false);
  });

  it('refuses the pooler setting without a direct URL, and a direct URL without DATABASE_URL', () => {
    expect(() => loadConfig({ DATABASE_URL: URL_A, DATABASE_TRANSACTION_POOLER: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: URL_A, DATABASE_TRANSACTION_POOLER: 'true' })).toThrow(/DATABASE_DIRECT_URL is required when DATABASE_TRANSACTION_POOLER is set/);
    expect(() => loadConfig({ DATABASE_DIRECT_URL: URL_B })).toThrow(/DATABASE_URL is required when DATABASE_DIRECT_URL is set/);
  });
});

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('through a transaction pooler, on PostgreSQL', () => {
  const statement = rawStatement('pooler_test_statement', sql`SELECT ${sql.placeholder('n')}::int + 1 AS n`);
  /** The statements this session has prepared by name, after running the named statement twice on one connection. */
  async function namedAfterTwoRuns(transactionPooler: boolean): Promise<string[]> {
    const database = openPostgres(url!, 1, DEFAULT_POOL_TIMEOUTS, { transactionPooler, directUrl: url! });
    try {
      expect(await runRaw<{ n: number }>(database, statement, { n: 1 })).toEqual([{ n: 2 }]);
      expect(await runRaw<{ n: number }>(database, statement, { n: 2 })).toEqual([{ n: 3 }]);
      const { rows } = await database.pool!.query<{ name: string }>('SELECT name FROM pg_prepared_statements');
      return rows.map((r) => r.name);
    } finally {
      await database.close();
    }
  }

  it('sends every statement unnamed, so no server connection keeps one another transaction would miss', async () => {
    expect(await namedAfterTwoRuns(false)).toContain('pooler_test_statement');
    expect(await namedAfterTwoRuns(true)).toEqual([]);
  });

  it('keeps a direct pool beside the pooled one, and closes both', async () => {
    const database = openPostgres(url!, 1, DEFAULT_POOL_TIMEOUTS, { transactionPooler: true, directUrl: url! });
    expect(database.directPool).toBeInstanceOf(pg.Pool);
    const { rows } = await database.directPool!.query<{ one: number }>('SELECT 1 AS one');
    expect(rows).toEqual([{ one: 1 }]);
    await database.close();
    expect(database.directPool!.ended).toBe(true);
    const plain = openPostgres(url!, 1);
    expect(plain.directPool).toBeUndefined();
    await plain.close();
  });
});
