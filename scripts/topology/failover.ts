// npm run test:topology: the reference topology (deploy/topology.sh) under load, its primary killed, later a standby
// cut off. Asserts the correctness goals — no acknowledged write lost, no 5xx but 503, no webhook event lost — and
// prints the timings without asserting them (docs/operations.md, "The reference topology"; decision 1451).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import readline from 'node:readline';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TOPOLOGY = path.join(REPO, 'deploy', 'topology.sh');
const BASE = process.env.TOURBOOK_HA_DIR ?? '/tmp/tourbook-ha';
const API = 'http://10.231.0.20:8080';
const HOOKS = { host: '10.231.0.50', port: 9000 };
const DATABASE_HOSTS = { db1: '10.231.0.11', db2: '10.231.0.12', db3: '10.231.0.13' } as const;
type DatabaseHost = keyof typeof DATABASE_HOSTS;
const TOKEN = process.env.BOOTSTRAP_ADMIN_TOKEN ?? `tb_ha_${randomUUID().replaceAll('-', '')}`;
const WRITERS = Number(process.env.TOPOLOGY_WRITERS ?? 4);
/** Seconds of each phase: load before the kill, after the first write following it, the partition, after it heals. */
const PHASE = { warmup: 15, afterRecovery: 10, partition: 20, afterHeal: 10 };
const REQUEST_TIMEOUT_MS = 30_000;

const started = Date.now();
const since = (at: number) => ((at - started) / 1000).toFixed(1);
const say = (line: string) => console.log(`[${since(Date.now())} s] ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function topology(command: 'up' | 'down' | 'status'): void {
  const env = { ...process.env, TOURBOOK_HA_DIR: BASE, BOOTSTRAP_ADMIN_TOKEN: TOKEN, TOURBOOK_HA_ENV: 'WEBHOOKS_ALLOW_PRIVATE_TARGETS=true' };
  const result = spawnSync('bash', [TOPOLOGY, command], { env, stdio: 'inherit' });
  if (result.status !== 0 && command === 'up') throw new Error(`deploy/topology.sh up failed (exit ${result.status}); logs in ${BASE}/logs`);
}

/** Runs a command in a host's network namespace. */
function inHost(host: string, ...command: string[]): string {
  const result = spawnSync('ip', ['netns', 'exec', `tbha-${host}`, ...command], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${host}: ${command.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

// ---------------------------------------------------------------- HTTP

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

/** Every answer of the run by status, and the non-503 5xx with what they said. */
const statuses = new Map<number, number>();
const bad5xx: string[] = [];
let networkErrors = 0;

async function call(method: string, route: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer | null> {
  try {
    const response = await fetch(`${API}${route}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    let parsed: Record<string, unknown> = {};
    try {
      parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      parsed = { text: text.slice(0, 200) };
    }
    if (response.status >= 500 && response.status !== 503) bad5xx.push(`${since(Date.now())} s ${method} ${route} → ${response.status} ${text.slice(0, 200)}`);
    return { status: response.status, body: parsed, headers: response.headers };
  } catch {
    // A connection cut by a failover or a timeout: the caller retries (with the same Idempotency-Key for writes).
    networkErrors++;
    return null;
  }
}

/** A setup call that must succeed (503s and cut connections are retried for up to a minute). */
async function must(method: string, route: string, body?: unknown): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = await call(method, route, body);
    if (answer && answer.status < 300) return answer.body;
    if (Date.now() > deadline || (answer && answer.status !== 503)) throw new Error(`${method} ${route}: ${answer?.status ?? 'no answer'} ${JSON.stringify(answer?.body ?? {})}`);
    await sleep(1000);
  }
}

const field = (body: Record<string, unknown>, key: string): Record<string, unknown> => body[key] as Record<string, unknown>;

// ---------------------------------------------------------------- the cluster

interface Member {
  name: string;
  role: string;
  state: string;
}

async function cluster(): Promise<Member[]> {
  for (const address of Object.values(DATABASE_HOSTS)) {
    try {
      const response = await fetch(`http://${address}:8008/cluster`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return ((await response.json()) as { members: Member[] }).members;
    } catch {
      // Try the next member.
    }
  }
  return [];
}

async function memberWithRole(role: string): Promise<DatabaseHost | null> {
  const member = (await cluster()).find((m) => m.role === role);
  return member ? (member.name as DatabaseHost) : null;
}

/** SIGKILL of everything on a database host but etcd: Patroni and every PostgreSQL process. */
function killDatabase(host: DatabaseHost): number {
  const pids = spawnSync('ip', ['netns', 'pids', `tbha-${host}`], { encoding: 'utf8' }).stdout.split(/\s+/).filter(Boolean);
  let killed = 0;
  for (const pid of pids) {
    const command = spawnSync('cat', [`/proc/${pid}/comm`], { encoding: 'utf8' }).stdout.trim();
    if (command === 'etcd') continue;
    try {
      process.kill(Number(pid), 'SIGKILL');
      killed++;
    } catch {
      // Already gone.
    }
  }
  return killed;
}

function startPatroni(host: DatabaseHost): void {
  spawnSync('bash', ['-c', `ip netns exec tbha-${host} setsid runuser -u postgres -- patroni ${BASE}/deploy/patroni/${host}.yml >>${BASE}/logs/patroni-${host}.log 2>&1 </dev/null &`], { cwd: '/' });
}

// ---------------------------------------------------------------- load

interface Ack {
  id: string;
  key: string;
  at: number;
  sentAt: number;
}

const acks: Ack[] = [];
const createAttempts = { total: 0, retried: 0, gaveUp: 0 };

/** One writer: booking creates one after another, each retried with its Idempotency-Key until it is answered. */
async function writer(body: unknown, running: () => boolean): Promise<void> {
  while (running()) {
    const key = randomUUID();
    const sentAt = Date.now();
    for (let attempt = 0; ; attempt++) {
      createAttempts.total++;
      if (attempt > 0) createAttempts.retried++;
      const answer = await call('POST', '/api/hailing/bookings', body, { 'idempotency-key': key });
      if (answer?.status === 201) {
        acks.push({ id: String(field(answer.body, 'booking').id), key, at: Date.now(), sentAt });
        break;
      }
      // 409: the key's first request is still running; 429: the API key's rate limit. Both are retried with the same key.
      if (answer && answer.status < 500 && answer.status !== 409 && answer.status !== 429) {
        say(`booking create answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 200)}`);
        break;
      }
      if (attempt >= 60 || !running()) {
        createAttempts.gaveUp++;
        break;
      }
      const retryAfter = Number(answer?.headers.get('retry-after') ?? 1);
      await sleep(Math.min(Number.isFinite(retryAfter) ? retryAfter : 1, 5) * 1000);
    }
  }
}

/** The live stream: reconnects with Last-Event-ID after every break, and counts the breaks and the resumes. */
const stream = { events: 0, breaks: 0, resumed: 0, refused: 0 };

async function follow(running: () => boolean): Promise<void> {
  let lastId: string | null = null;
  while (running()) {
    try {
      const response = await fetch(`${API}/api/live`, {
        headers: { authorization: `Bearer ${TOKEN}`, accept: 'text/event-stream', ...(lastId ? { 'last-event-id': lastId } : {}) },
      });
      if (response.status !== 200 || !response.body) {
        stream.refused++;
        await response.body?.cancel();
        await sleep(1000);
        continue;
      }
      if (lastId) stream.resumed++;
      const lines = readline.createInterface({ input: Readable.fromWeb(response.body as WebReadableStream<Uint8Array>) });
      for await (const line of lines) {
        if (line.startsWith('id: ')) {
          lastId = line.slice(4);
          stream.events++;
        }
        if (!running()) break;
      }
    } catch {
      // The stream broke: reconnect below.
    }
    if (running()) {
      stream.breaks++;
      await sleep(1000);
    }
  }
}


// ---------------------------------------------------------------- the run

async function main(): Promise<number> {
  if (process.env.TOPOLOGY_REUSE === '1') {
    say('using the running topology (TOPOLOGY_REUSE=1)');
  } else {
    say('cleaning what a previous run may have left, then starting the topology');
    topology('up');
    say('topology up');
  }

  const webhooks: { webhook_id: string | null; type: string | null; booking_id: string | null }[] = [];
  const receiver: ChildProcess = spawn('ip', ['netns', 'exec', 'tbha-hooks', process.execPath, path.join(REPO, 'scripts/topology/receiver.mjs'), HOOKS.host, String(HOOKS.port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const listening = new Promise<void>((resolve, reject) => {
    receiver.once('exit', (code) => reject(new Error(`the webhook receiver exited (${code}) before it listened`)));
    readline.createInterface({ input: receiver.stdout! }).on('line', (line) => {
      const parsed = JSON.parse(line) as { listening?: string; webhook_id: string | null; type: string | null; booking_id: string | null };
      if (parsed.listening) resolve();
      else webhooks.push(parsed);
    });
  });
  await listening;

  // A city to book in, and a subscription to every booking's creation.
  const area = field(await must('POST', '/api/admin/service_areas', { service_area: { name: 'Topology', currency: 'EUR', time_zone: 'Europe/Berlin', average_speed_kmh: 30 } }), 'service_area');
  const service = field(await must('POST', '/api/admin/hailing/services', { service: { name: 'Topology', service_area_id: area.id } }), 'service');
  const placeIds: string[] = [];
  for (const [i, location] of [{ lat: 52.52, lng: 13.405 }, { lat: 52.51, lng: 13.39 }].entries()) {
    const place = field(
      await must('POST', '/api/places', { place: { name: `Topology ${i}`, location, service_area_id: area.id, address: { street: 'Topologieweg', number: String(i + 1), city: 'Berlin', country: 'DE' } } }),
      'place',
    );
    placeIds.push(String(place.id));
  }
  await must('POST', '/api/admin/webhooks', { webhook: { url: `http://${HOOKS.host}:${HOOKS.port}/tourbook`, events: ['booking.created'] } });
  const booking = {
    booking: { service_id: service.id, stops: [{ type: 'pickup', place_id: placeIds[0] }, { type: 'dropoff', place_id: placeIds[1] }], packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1 }] },
  };

  let loading = true;
  const running = () => loading;
  const simulateSeconds = PHASE.warmup + 90;
  const simulate = spawn(process.execPath, [path.join(REPO, 'bin/tourbook.js'), 'simulate', '--url', API, '--token', TOKEN, '--drivers', '5', '--bookings-per-minute', '12', '--speedup', '4', '--duration', String(simulateSeconds)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const simulateOutput: string[] = [];
  for (const pipe of [simulate.stdout!, simulate.stderr!]) readline.createInterface({ input: pipe }).on('line', (line) => simulateOutput.push(line));
  const simulateExit = new Promise<number | null>((resolve) => simulate.on('exit', (code) => resolve(code)));
  const writers = Array.from({ length: WRITERS }, () => writer(booking, running));
  const follower = follow(running);

  say(`load: ${WRITERS} booking writers, tourbook simulate (5 drivers), one live stream`);
  await sleep(PHASE.warmup * 1000);

  // 1. Kill the primary.
  const primary = await memberWithRole('leader');
  if (!primary) throw new Error('no leader before the kill');
  const killedAt = Date.now();
  const killed = killDatabase(primary);
  say(`killed the primary ${primary} (SIGKILL of ${killed} Patroni/PostgreSQL processes)`);
  const acksBefore = acks.length;
  let firstWrite: Ack | null = null;
  for (let waited = 0; waited < 120 && !firstWrite; waited++) {
    firstWrite = acks.slice(acksBefore).find((a) => a.sentAt >= killedAt) ?? null;
    if (!firstWrite) await sleep(250);
  }
  const newPrimary = await memberWithRole('leader');
  say(firstWrite ? `first acknowledged write ${((firstWrite.at - killedAt) / 1000).toFixed(1)} s after the kill; new primary ${newPrimary}` : 'no acknowledged write within 30 s of the kill');
  await sleep(PHASE.afterRecovery * 1000);

  // The killed member comes back as a standby (pg_rewind when it must).
  startPatroni(primary);
  say(`restarted Patroni on ${primary}`);
  for (let waited = 0; waited < 60; waited++) {
    const members = await cluster();
    if (members.filter((m) => m.state === 'running' || m.state === 'streaming').length === 3) break;
    await sleep(1000);
  }
  say(`cluster: ${(await cluster()).map((m) => `${m.name} ${m.role} ${m.state}`).join(', ')}`);

  // 2. Cut the synchronous standby off the network.
  const standby = (await memberWithRole('sync_standby')) ?? (await memberWithRole('replica'));
  let partitionFirstWrite: number | null = null;
  if (standby) {
    const partitionedAt = Date.now();
    inHost(standby, 'ip', 'link', 'set', 'eth0', 'down');
    say(`partitioned the standby ${standby}`);
    const acksAtPartition = acks.length;
    for (let waited = 0; waited < PHASE.partition * 4; waited++) {
      const first = acks.slice(acksAtPartition).find((a) => a.sentAt >= partitionedAt);
      if (first && partitionFirstWrite === null) partitionFirstWrite = first.at - partitionedAt;
      await sleep(250);
    }
    inHost(standby, 'ip', 'link', 'set', 'eth0', 'up');
    say(`healed the partition of ${standby}`);
  } else {
    say('no standby to partition');
  }
  await sleep(PHASE.afterHeal * 1000);

  loading = false;
  await Promise.all(writers);
  simulate.kill('SIGINT');
  const simulateCode = await Promise.race([simulateExit, sleep(15_000).then(() => 'still running' as const)]);
  if (simulateCode === 'still running') simulate.kill('SIGKILL');
  await Promise.race([follower, sleep(20_000)]);
  say(`load stopped: ${acks.length} bookings acknowledged`);

  // Every Tourbook process is still running: HAProxy answers 503 for a crashed one, which would pass for a pause.
  const crashed = ['api1', 'api2', 'worker'].filter((host) => !spawnSync('ip', ['netns', 'pids', `tbha-${host}`], { encoding: 'utf8' }).stdout.trim());

  // Every acknowledged booking is read back (503s, 429s of the API key's rate limit — a thousand reads in a row pass
  // it — and cut connections retried, for at most two minutes in all).
  const lost: string[] = [];
  const readDeadline = Date.now() + 120_000;
  for (const ack of acks) {
    let answer: Answer | null = null;
    for (;;) {
      answer = await call('GET', `/api/hailing/bookings/${ack.id}`);
      if ((answer && answer.status !== 503 && answer.status !== 429) || Date.now() > readDeadline) break;
      await sleep(answer?.status === 429 ? 250 : 1000);
    }
    if (answer?.status !== 200) lost.push(`${ack.id} (${answer?.status ?? 'no answer'})`);
  }

  // Every acknowledged booking's booking.created arrives (the worker catches up), each with one webhook-id.
  const acked = new Set(acks.map((a) => a.id));
  const delivered = () => new Set(webhooks.filter((w) => w.type === 'booking.created' && w.booking_id && acked.has(w.booking_id)).map((w) => w.booking_id));
  for (let waited = 0; waited < 120 && delivered().size < acked.size && !crashed.includes('worker'); waited++) await sleep(1000);
  const missingWebhooks = [...acked].filter((id) => !delivered().has(id));
  const idsByBooking = new Map<string, Set<string>>();
  for (const w of webhooks) if (w.booking_id && w.webhook_id) idsByBooking.set(w.booking_id, (idsByBooking.get(w.booking_id) ?? new Set()).add(w.webhook_id));
  const changedIds = [...idsByBooking.values()].filter((ids) => ids.size > 1).length;
  const repeats = webhooks.length - new Set(webhooks.map((w) => w.webhook_id)).size;
  receiver.kill('SIGKILL');

  const report = [
    '',
    'Topology test report',
    `  primary killed: ${primary}; new primary: ${newPrimary}; standby partitioned: ${standby ?? 'none'}`,
    `  acknowledged booking creates: ${acks.length} (${createAttempts.total} attempts, ${createAttempts.retried} retries with the same Idempotency-Key, ${createAttempts.gaveUp} given up)`,
    `  acknowledged writes lost: ${lost.length}${lost.length ? ` — ${lost.slice(0, 5).join(', ')}` : ''} (goal 0)`,
    `  answers by status: ${[...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(', ')}; connections cut or timed out: ${networkErrors}`,
    `  5xx other than 503: ${bad5xx.length} (goal 0)${bad5xx.length ? `\n    ${bad5xx.slice(0, 5).join('\n    ')}` : ''}`,
    `  kill → first successful write: ${firstWrite ? `${((firstWrite.at - killedAt) / 1000).toFixed(1)} s` : 'none within 30 s'} (goal ≤ 30 s; not asserted)`,
    `  partition → first successful write: ${partitionFirstWrite === null ? 'none during the partition' : `${(partitionFirstWrite / 1000).toFixed(1)} s`} (not asserted)`,
    `  webhook events lost: ${missingWebhooks.length} of ${acked.size} (goal 0); repeats: ${repeats}, a repeat with another webhook-id: ${changedIds}`,
    `  live stream: ${stream.events} events, ${stream.breaks} breaks, ${stream.resumed} resumed with Last-Event-ID, ${stream.refused} reconnects refused`,
    `  Tourbook processes crashed: ${crashed.length ? crashed.join(', ') : 'none'} (goal none)`,
    `  tourbook simulate: ${simulateCode === null ? 'stopped at the end of the run' : `exit ${String(simulateCode)}`}; ${simulateOutput.slice(-3).join(' | ')}`,
  ];
  console.log(report.join('\n'));
  const failures = [crashed.length > 0 && `Tourbook processes crashed (${crashed.join(', ')})`, lost.length > 0 && 'acknowledged writes were lost', bad5xx.length > 0 && 'requests were answered 5xx other than 503', missingWebhooks.length > 0 && 'webhook events were lost', changedIds > 0 && 'a webhook repeat changed its webhook-id'].filter(Boolean);
  if (failures.length) {
    console.log(`\nFAILED: ${failures.join('; ')}`);
    // The logs go with the topology: what the processes said last is printed here.
    spawnSync('bash', ['-c', `tail -n 40 ${BASE}/logs/*.log`], { stdio: 'inherit' });
    return 1;
  }
  console.log('\nOK: no acknowledged write lost, no 5xx but 503, no webhook event lost');
  return 0;
}

let code = 1;
const cleanUp = () => {
  if (process.env.TOPOLOGY_KEEP === '1') return;
  say('removing the topology');
  topology('down');
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    cleanUp();
    process.exit(130);
  });
}
try {
  code = await main();
} catch (err) {
  console.error(err);
  spawnSync('bash', ['-c', `tail -n 20 ${BASE}/logs/*.log`], { stdio: 'inherit' });
  code = 1;
} finally {
  cleanUp();
}
process.exit(code);
