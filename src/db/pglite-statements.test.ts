import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { openPglite, type Database } from './client.ts';

// The embedded database's statement path, on its own in-memory instance (it is PGlite's, whatever the suite runs on).
let database: Database;
let client: PGlite;
beforeAll(async () => {
  database = await openPglite();
  client = database.pglite!;
  await client.exec(`CREATE TABLE parcels (id int PRIMARY KEY, label text, weight numeric, tags text[], seen_at timestamptz, data jsonb)`);
  // A row every test may read, so no test depends on another having run first (CI runs shuffled).
  await client.exec(`INSERT INTO parcels (id, label) VALUES (100, 'hundred')`);
});
afterAll(async () => database.close());

const preparedCount = async () => (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements')).rows[0]!.n;

describe('PGlite prepared statements', () => {
  it('serializes parameters by their described types and parses results as PGlite does', async () => {
    await client.query('INSERT INTO parcels VALUES ($1, $2, $3, $4, $5, $6)', [1, 'one', 2.5, ['a', 'b'], new Date('2026-11-22T10:00:00Z'), { deep: [1, { x: null }] }]);
    const { rows } = await client.query<Record<string, unknown>>('SELECT * FROM parcels WHERE id = $1', [1]);
    expect(rows).toEqual([{ id: 1, label: 'one', weight: '2.5', tags: ['a', 'b'], seen_at: '2026-11-22 10:00:00+00', data: { deep: [1, { x: null }] } }]);
    const asArrays = await client.query('SELECT id, label FROM parcels WHERE id = $1', [1], { rowMode: 'array' });
    expect(asArrays.rows).toEqual([[1, 'one']]);
    expect(asArrays.fields.map((f) => f.name)).toEqual(['id', 'label']);
  });

  it('prepares a statement text once and runs it again with other values', async () => {
    // Counted by its text, not as a delta of all statements: other tests (in any order) prepare and evict their own.
    const text = 'INSERT INTO parcels (label, id) VALUES ($1, $2)';
    for (const id of [10, 11, 12]) await client.query(text, [`p${id}`, id]);
    expect((await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = $1', [text])).rows[0]!.n).toBe(1);
    expect((await client.query('SELECT label FROM parcels WHERE id = ANY($1::int[]) ORDER BY id', [[10, 11, 12]])).rows).toEqual([{ label: 'p10' }, { label: 'p11' }, { label: 'p12' }]);
  });

  it('reports a failing statement as PostgreSQL does and stays usable', async () => {
    const failure = await client.query('INSERT INTO parcels (id) VALUES ($1)', [100]).catch((err: unknown) => err);
    expect(failure).toMatchObject({ code: '23505', constraint: 'parcels_pkey' });
    const syntax = await client.query('SELEC 1').catch((err: unknown) => err);
    expect(syntax).toMatchObject({ code: '42601' });
    expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('runs transactions on the same path, rolling back on error', async () => {
    const failure = await client
      .transaction(async (tx) => {
        await tx.query('INSERT INTO parcels (id, label) VALUES ($1, $2)', [20, 'in tx']);
        await tx.query('INSERT INTO parcels (id) VALUES ($1)', [20]);
      })
      .catch((err: unknown) => err);
    expect(failure).toMatchObject({ code: '23505' });
    expect((await client.query('SELECT count(*)::int AS n FROM parcels WHERE id = $1', [20])).rows).toEqual([{ n: 0 }]);
    await client.transaction(async (tx) => {
      await tx.query('INSERT INTO parcels (id, label) VALUES ($1, $2)', [21, 'committed']);
    });
    expect((await client.query('SELECT label FROM parcels WHERE id = $1', [21])).rows).toEqual([{ label: 'committed' }]);
  });

  it('closes the least recently used statements beyond its limit', async () => {
    for (let i = 0; i < 400; i++) expect((await client.query(`SELECT $1::int + ${i} AS n`, [1])).rows).toEqual([{ n: 1 + i }]);
    expect(await preparedCount()).toBeLessThanOrEqual(301);
    // A statement used before the flood was closed; it is prepared again.
    expect((await client.query('SELECT label FROM parcels WHERE id = $1', [100])).rows).toEqual([{ label: 'hundred' }]);
  });

  it('prepares a statement again when a migration changed its result columns', async () => {
    // A table of its own: altering parcels would change what the other tests' SELECT * returns.
    await client.exec(`CREATE TABLE crates (id int PRIMARY KEY, label text); INSERT INTO crates VALUES (1, 'one')`);
    expect((await client.query('SELECT * FROM crates WHERE id = $1', [1])).rows[0]).not.toHaveProperty('note');
    await client.exec('ALTER TABLE crates ADD COLUMN note text');
    expect((await client.query('SELECT * FROM crates WHERE id = $1', [1])).rows[0]).toHaveProperty('note', null);
  });
});
