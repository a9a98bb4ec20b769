// What a transaction pooler costs the bookings benchmark (issue 26), on plain PostgreSQL without the topology: through
// PgBouncer 1.18 every statement goes unnamed (decision 1450), parsed and planned on every run.
// (1) Each statement GET booking and create booking send: its planning time (EXPLAIN SUMMARY, median of 30) and its
//     run time unnamed vs named on one connection (medians of rounds of 100): the difference is parse + plan. Also
//     listed: the create with an Idempotency-Key (as the topology test's writers send it; the load below sends none).
//     The servers take the environment: REPORTS_MASTER_KEY set, they render tracking links as a deployment does
//     (decision 0207: a server deployment holds a master key; the benchmark's servers hold none).
// (2) The bookings benchmark's GET and create, one server with named statements, one with every statement unnamed
//     (DATABASE_TRANSACTION_POOLER=true, the same URL direct): goal unnamed/named ≥ 0.9. BENCH_LOAD=0 skips it.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { finishReport, load, machineDescription, median, printTable, scratchDatabase, startServer, summarize, type LoadResult } from './_harness.ts';
import type { BookingsInfo } from './_bookings-server.ts';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const SERVER = path.join(BENCH, '_bookings-server.ts');
const DURATION = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LOAD = process.env.BENCH_LOAD !== '0';

console.log(`Machine: ${machineDescription()}; load average at start ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);

interface Logged {
  text: string;
  name: string | null;
  values: unknown[];
}

const database = await scratchDatabase('postgres');
const logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-bench-pooler-')), 'statements.jsonl');
const seed = { BENCH_SMALL_BOOKINGS: '2000', BENCH_LARGE_BOOKINGS: '2000' };
// Only the named server logs its statements (the hook reads STATEMENT_LOG).
process.env.BENCH_SERVER_NODE_ARGS = `${process.env.BENCH_SERVER_NODE_ARGS ?? ''} --import ${path.join(BENCH, '_statement-log.ts')}`;
const named = await startServer<BookingsInfo>(SERVER, database, { ...seed, STATEMENT_LOG: logFile });
const unnamed = await startServer<BookingsInfo>(SERVER, database, { ...seed, DATABASE_TRANSACTION_POOLER: 'true', DATABASE_DIRECT_URL: database.url! });
const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
const requests = {
  'GET booking': (info: BookingsInfo) => ({ url: info.realShowUrl, headers: auth(info.adminToken) }),
  'create booking': (info: BookingsInfo) => ({ url: info.realCreateUrl, method: 'POST' as const, body: info.createBody, headers: auth(info.adminToken) }),
};
/** Listed only: each send with a key of its own, so each claims a new key (a repeat would be a replay). */
const listed = {
  ...requests,
  'create booking, Idempotency-Key': (info: BookingsInfo) => ({ ...requests['create booking'](info), headers: { ...auth(info.adminToken), 'idempotency-key': randomUUID() } }),
};

/** The statements one request sends, after two warm-up requests (first renders write what later ones only read). */
async function statementsOf(what: keyof typeof listed): Promise<Logged[]> {
  const request = () => listed[what](named.info);
  const send = async () => {
    const { url, ...init } = request();
    const res = await fetch(url, init);
    if (!res.ok) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  };
  await send();
  await send();
  fs.writeFileSync(logFile, '');
  fs.writeFileSync(`${logFile}.on`, '');
  await send();
  fs.rmSync(`${logFile}.on`);
  // Transaction control has no plan; only the statements that do work are measured.
  const logged = fs.readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Logged);
  return logged.filter((s) => /^\s*(select|with|insert|update|delete)\b/i.test(s.text));
}

const client = new pg.Client({ connectionString: database.url! });
await client.connect();
// Dropping the scratch database at the end ends this connection if an error left it open.
client.on('error', () => undefined);
// Writes: an INSERT, UPDATE or DELETE, or a call of a function that inserts (insert_new_booking).
const writes = (text: string) => /\b(insert|update|delete)\b|\binsert_/i.test(text);

/**
 * EXPLAIN takes no protocol-level parameters: the statement is PREPAREd in SQL with its values as literals, and each
 * EXPLAIN EXECUTE plans it again (custom plans forced), as an unnamed statement is planned with its values.
 */
async function planningMs(s: Logged, index: number): Promise<number> {
  const name = `bench_pooler_plan_${index}`;
  await client.query('SET plan_cache_mode = force_custom_plan');
  await client.query(`PREPARE ${name} AS ${s.text}`);
  const args = s.values.map((v) => (v === null ? 'NULL' : client.escapeLiteral(String(v)))).join(', ');
  const times: number[] = [];
  for (let i = 0; i < 30; i++) {
    const { rows } = await client.query<{ 'QUERY PLAN': [{ 'Planning Time': number }] }>(`EXPLAIN (SUMMARY ON, FORMAT JSON) EXECUTE ${name}${args ? `(${args})` : ''}`);
    times.push(rows[0]!['QUERY PLAN'][0]['Planning Time']);
  }
  await client.query(`DEALLOCATE ${name}`);
  await client.query('RESET plan_cache_mode');
  return median(times);
}

/**
 * µs per run, unnamed and named, medians of rounds of 100. Writes run inside BEGIN … ROLLBACK and meet the keys of the
 * rows their request committed: they fail early in execution, after parsing and planning, so the difference between
 * unnamed and named is still what parsing and planning cost.
 */
async function runMicros(s: Logged, index: number): Promise<{ unnamed: number; named: number }> {
  const once = async (name: string | undefined) => {
    if (!writes(s.text)) return void (await client.query({ text: s.text, values: s.values, ...(name ? { name } : {}) }));
    await client.query('BEGIN');
    await client.query({ text: s.text, values: s.values, ...(name ? { name } : {}) }).catch(() => undefined);
    await client.query('ROLLBACK');
  };
  const rounds: Record<'unnamed' | 'named', number[]> = { unnamed: [], named: [] };
  for (let round = 0; round < 5; round++) {
    for (const [kind, name] of [['unnamed', undefined], ['named', `bench_pooler_${index}`]] as const) {
      const start = performance.now();
      for (let i = 0; i < 100; i++) await once(name);
      rounds[kind].push(((performance.now() - start) * 1000) / 100);
    }
  }
  return { unnamed: median(rounds.unnamed), named: median(rounds.named) };
}

let measured = 0;
const oneLine = (text: string) => text.replace(/\s+/g, ' ').slice(0, 90);
let failed = false;
try {
  for (const what of Object.keys(listed) as (keyof typeof listed)[]) {
    const statements = await statementsOf(what);
    const rows: Record<string, string | number>[] = [];
    let plan = 0;
    let extra = 0;
    for (const s of statements) {
      const planning = await planningMs(s, ++measured);
      const micros = await runMicros(s, measured);
      plan += planning;
      extra += micros.unnamed - micros.named;
      rows.push({ statement: oneLine(s.text), name: s.name ?? '', 'planning ms': planning.toFixed(3), 'unnamed µs': Math.round(micros.unnamed), 'named µs': Math.round(micros.named) });
    }
    rows.push({ statement: `${what}: ${statements.length} statements`, name: '', 'planning ms': plan.toFixed(3), 'unnamed µs': '', 'named µs': `+${Math.round(extra)} unnamed` });
    console.log(`\n${what}`);
    printTable(rows);
    for (const s of statements) console.log(`-- ${s.name ?? '(unnamed)'}\n${s.text}\n`);
  }
  await client.end();

  if (LOAD) {
    const rows: Record<string, string | number>[] = [];
    for (const what of Object.keys(requests) as (keyof typeof requests)[]) {
      const runs: Record<'named' | 'unnamed', LoadResult[]> = { named: [], unnamed: [] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const [label, server] of [['named', named], ['unnamed', unnamed]] as const) {
          runs[label].push(await load({ ...requests[what](server.info), durationSeconds: DURATION, server, label: `${label} ${what}`, alsoCpuOf: ['postgres'] }));
        }
      }
      if ([...runs.named, ...runs.unnamed].some((r) => r.non2xx || r.errors)) failed = true;
      const namedRow = summarize(`named ${what}`, runs.named);
      const unnamedRow = summarize(`unnamed ${what}`, runs.unnamed);
      rows.push(namedRow, { ...unnamedRow, 'unnamed/named': (unnamedRow['req/s'] / namedRow['req/s']).toFixed(2) });
    }
    console.log(`\nautocannon: 50 connections, ${DURATION} s per run after a 2 s warm-up, ${ROUNDS} alternating rounds, medians; load average now ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    finishReport(rows, failed);
  }
} finally {
  await named.stop();
  await unnamed.stop();
  await database.drop();
  fs.rmSync(path.dirname(logFile), { recursive: true, force: true });
}
