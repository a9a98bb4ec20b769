// The tourbook command as a newcomer meets it (issue 12): the built binary in child processes, a real port, a real
// data directory. dist/ must be current (`npm test` builds it first; bin/tourbook.js refuses a stale one).
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'bin', 'tourbook.js');
const SLOW = 120_000;
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-cli-'));
  dirs.push(dir);
  return dir;
};

/** The child's environment: none of the developer's database or port settings leak in. */
function envWith(extra: Record<string, string>): NodeJS.ProcessEnv {
  const { DATABASE_URL: _d, PORT: _p, HOST: _h, TOURBOOK_URL: _u, TOURBOOK_ADMIN_TOKEN: _t, BOOTSTRAP_ADMIN_TOKEN: _b, ...rest } = process.env;
  return { ...rest, LOG_FORMAT: 'json', ...extra };
}

function run(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [BIN, ...args], { env: envWith(env), encoding: 'utf8', timeout: SLOW });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `run`, without blocking this process: for a command that talks to a server this test runs. */
function runAsync(args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: envWith(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const noStackTrace = (text: string) => expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);

interface Server {
  child: ChildProcessWithoutNullStreams;
  lines: Record<string, unknown>[];
  /** What it wrote on standard error so far. */
  stderr(): string;
  url: string;
  stop(): Promise<void>;
}

/** `tourbook serve` until its "Ready" line; every stdout line must be JSON (LOG_FORMAT=json, as when not a terminal). */
async function serve(env: Record<string, string>, flags: { port?: number } = {}): Promise<Server> {
  const port = flags.port ?? (await freePort());
  const args = flags.port ? ['serve', '--port', String(flags.port)] : ['serve'];
  const child = spawn(process.execPath, [BIN, ...args], { env: envWith({ PORT: String(flags.port ? await freePort() : port), ...env }) });
  const lines: Record<string, unknown>[] = [];
  let buffered = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const complete = buffered.split('\n');
      buffered = complete.pop() ?? '';
      for (const line of complete) {
        lines.push(JSON.parse(line) as Record<string, unknown>);
        if (String(lines.at(-1)?.msg).startsWith('Ready')) resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  return {
    child,
    lines,
    stderr: () => stderr,
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const messages = (server: Server) => server.lines.map((line) => String(line.msg));

/** The bootstrap admin token from serve's standard error (decision 0208), or undefined. */
const tokenOnStderr = (stderr: string) => /^Admin token \(shown once\): (\S+)$/m.exec(stderr)?.[1];

describe('tourbook command line', () => {
  it('--help alone prints the usage of every command and exits 0', () => {
    for (const args of [['--help'], ['-h'], ['help'], []]) {
      const result = run(args);
      expect(result.status, args.join(' ')).toBe(0);
      expect(result.stdout).toContain('Usage: tourbook <command>');
      expect(result.stdout).toContain('admin-key create');
    }
  });

  it.each([
    ['serve', ['--role', '--port', '--host', 'PORT', 'HOST', 'DATABASE_URL', 'DATA_DIR']],
    ['migrate', ['DATABASE_URL', 'DATA_DIR']],
    ['tenant create', ['--name', '--extension', '--json', 'DATABASE_URL']],
    ['admin-key create', ['--tenant', '--json', 'DATABASE_URL']],
    ['keys rotate', ['--new-key', 'REPORTS_MASTER_KEY']],
    ['demo', ['--url', '--token', 'TOURBOOK_URL', 'TOURBOOK_ADMIN_TOKEN', 'BOOTSTRAP_ADMIN_TOKEN']],
    ['optimize', ['--instance', '--time-limit', '--seed', '--workers', '--json']],
    ['simulate', ['--url', '--token', '--drivers', '--bookings-per-minute', '--warmup', 'TOURBOOK_URL']],
  ])('%s --help prints its own help: usage, flags and the environment it reads', (command, mentions) => {
    const words = command.split(' ');
    for (const args of [[...words, '--help'], [...words, '-h'], ['help', ...words], [...words, '--bogus', '--help']]) {
      const result = run(args);
      expect(result.status, args.join(' ')).toBe(0);
      expect(result.stdout.split('\n')[0], args.join(' ')).toMatch(new RegExp(`^Usage: tourbook ${command}\\b`));
      expect(result.stdout).not.toContain('Usage: tourbook <command>');
      for (const mention of mentions) expect(result.stdout, `${args.join(' ')}: ${mention}`).toContain(mention);
    }
  });

  it('an unknown flag is one clear line and the command\'s usage on stderr, exit 2, no stack trace', () => {
    const result = run(['serve', '--prot', '3001']);
    expect(result.status).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe("tourbook: serve: Unknown option '--prot'");
    expect(result.stderr).toContain('Usage: tourbook serve');
    noStackTrace(result.stderr);
    expect(result.stdout).toBe('');
  });

  it('an unknown command or a missing sub-command says so, exit 2', () => {
    const unknown = run(['serv']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr.split('\n')[0]).toBe('tourbook: unknown command "serv"');
    const missing = run(['admin-key']);
    expect(missing.status).toBe(2);
    expect(missing.stderr.split('\n')[0]).toBe('tourbook: admin-key needs a sub-command: admin-key create');
  });

  it('a busy port stops serve before anything is created, naming the port and how to choose another', async () => {
    const dataDir = tempDir();
    const blocker = net.createServer();
    const port = await new Promise<number>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as net.AddressInfo).port)));
    try {
      const result = run(['serve'], { PORT: String(port), DATA_DIR: dataDir });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(result.stderr).toContain(`PORT=${port + 1} npx tourbook serve`);
      noStackTrace(result.stderr);
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      blocker.close();
    }
  });

  it('serve refuses a bad --port or --host naming the flag, exit 2', () => {
    const port = run(['serve', '--port', '99999'], { DATA_DIR: tempDir() });
    expect(port.status).toBe(2);
    expect(port.stderr).toContain('--port must be <= 65535, got "99999"');
    const host = run(['serve', '--host', 'not a host!'], { DATA_DIR: tempDir() });
    expect(host.status).toBe(2);
    expect(host.stderr).toContain('--host must');
    noStackTrace(port.stderr + host.stderr);
  });

  it('demo against a server that is not Tourbook fails with one clear line, no stack trace', async () => {
    // One answers everything with an HTML page; the other passes a liveness check but answers the API with HTML.
    const pages = [(_url: string) => false, (url: string) => url === '/healthz'];
    for (const healthy of pages) {
      const other = http.createServer((request, response) => {
        if (healthy(request.url ?? '')) return void response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
        response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Some other app</title>');
      });
      const port = await new Promise<number>((resolve) => other.listen(0, '127.0.0.1', () => resolve((other.address() as net.AddressInfo).port)));
      try {
        const result = await runAsync(['demo', '--url', `http://127.0.0.1:${port}`, '--token', 'tb_x']);
        expect(result.status).toBe(1);
        expect(result.stderr.trim().split('\n')).toHaveLength(1);
        expect(result.stderr).toContain(`tourbook demo: http://127.0.0.1:${port} is not a Tourbook service`);
        expect(result.stderr).toContain('--url');
        noStackTrace(result.stderr);
      } finally {
        other.close();
      }
    }
  });

  it("runs docs/optimizer.md's optimize example as written, on an instance in the repository", () => {
    const guide = fs.readFileSync(path.join(ROOT, 'docs', 'optimizer.md'), 'utf8');
    const example = guide.split('\n').find((line) => line.startsWith('npx tourbook optimize '));
    expect(example).toBeDefined();
    // As written but for the search budget (10 s there): the instance path and the flags are what is checked.
    const args = example!.split(/\s+/).slice(2).map((arg, i, all) => (all[i - 1] === '--time-limit' ? '1' : arg));
    const result = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, env: envWith({}), encoding: 'utf8', timeout: SLOW });
    expect(result.status, result.stderr).toBe(0);
    const last = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as { instance: string; vehicles: number };
    expect(last).toMatchObject({ instance: 'lc101', vehicles: expect.any(Number) });
  });

  it('demo with nothing answering says where it looked and how to point it elsewhere', async () => {
    const port = await freePort();
    const result = run(['demo', '--token', 'tb_x'], { PORT: String(port) });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`nothing answers at http://127.0.0.1:${port}`);
    expect(result.stderr).toContain('TOURBOOK_URL');
    noStackTrace(result.stderr);
  });
});

describe('first run on the embedded database', () => {
  it(
    'migrate names the database; serve --port logs progress, requests, the ready URL and a demo hint with its URL; demo follows PORT; admin-key create lets one back in',
    async () => {
      const dataDir = tempDir();
      const migrated = run(['migrate'], { DATA_DIR: dataDir });
      expect(migrated.status).toBe(0);
      expect(migrated.stdout).toContain(`Migrated the embedded database in ${path.join(dataDir, 'pglite')} (DATA_DIR;`);
      expect(migrated.stdout).toContain('it is up to date');

      const noTenant = run(['admin-key', 'create'], { DATA_DIR: dataDir });
      expect(noTenant.status).toBe(1);
      expect(noTenant.stderr).toContain('there is no tenant yet');

      // --port wins over PORT (serve() sets PORT to another free port).
      const first = await serve({ DATA_DIR: dataDir }, { port: await freePort() });
      // Standard error is its own pipe: the token's lines may arrive after the log's "Ready" on standard output.
      await expect.poll(() => tokenOnStderr(first.stderr())).toBeDefined();
      const token = tokenOnStderr(first.stderr())!;
      try {
        // The token is on standard error as plain lines, and in no JSON log line (decision 0208).
        expect(token).toMatch(/^tb_/);
        // Not the default port: the demo hint carries the URL the demo needs.
        expect(first.stderr()).toContain(`npx tourbook demo --url ${first.url} --token ${token}`);
        expect(JSON.stringify(first.lines)).not.toContain(token);
        expect(messages(first).join('\n')).toContain('its admin token is on standard error');
        expect(messages(first)[0]).toBe(`Opening the embedded database in ${path.join(dataDir, 'pglite')}`);
        expect(messages(first)).toContain(`Ready: ${first.url} (console ${first.url}/console, API reference ${first.url}/docs, OpenAPI ${first.url}/openapi.json)`);
        expect(messages(first).join('\n')).toContain('npx tourbook admin-key create');

        const root = await fetch(`${first.url}/`, { redirect: 'manual', headers: { 'x-request-id': 'cli-test-root' } });
        expect(root.status).toBe(302);
        expect(root.headers.get('location')).toBe('/console');
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(first.lines.filter((line) => line.request_id === 'cli-test-root')).toEqual([
          expect.objectContaining({ level: 30, method: 'GET', route: '/', status: 302, ms: expect.any(Number), msg: expect.stringContaining('GET / 302') }),
        ]);

        // The demo finds the service through PORT (not the default 3000) and ends with three requests that work.
        const demo = run(['demo', '--token', token], { PORT: new URL(first.url).port });
        expect(demo.status, demo.stderr).toBe(0);
        const curls = demo.stdout.split('\n').filter((line) => line.trim().startsWith('curl '));
        expect(curls).toHaveLength(3);
        for (const curl of curls) {
          const [, bearer] = /Bearer ([^"]+)"/.exec(curl)!;
          const url = curl.trim().split(' ').at(-1)!;
          const res = await fetch(url, { method: curl.includes('-X POST') ? 'POST' : 'GET', headers: { authorization: `Bearer ${bearer}` } });
          expect(res.status, curl).toBe(200);
        }
      } finally {
        await first.stop();
      }

      // Token lost: mint a new one on the machine that owns the database, with the service stopped.
      const minted = run(['admin-key', 'create', '--json'], { DATA_DIR: dataDir });
      expect(minted.status, minted.stderr).toBe(0);
      const { admin_token: newToken } = JSON.parse(minted.stdout) as { admin_token: string };
      expect(newToken).toMatch(/^tb_/);
      expect(newToken).not.toBe(token);

      const second = await serve({ DATA_DIR: dataDir });
      try {
        expect(tokenOnStderr(second.stderr())).toBeUndefined();
        const me = await fetch(`${second.url}/api/user`, { headers: { authorization: `Bearer ${newToken}` } });
        expect(me.status).toBe(200);
        expect(((await me.json()) as { user: { role: string } }).user.role).toBe('admin');
      } finally {
        await second.stop();
      }
    },
    SLOW * 2,
  );
});

/** The bootstrap admin's one-time console sign-in link from serve's standard error (decision 1602), or undefined. */
const signInLinkOnStderr = (stderr: string) => /^Sign in to the console \(the link works once, until \S+\): (\S+)$/m.exec(stderr)?.[1];

describe('the bootstrap admin\'s first sign-in', () => {
  it(
    'serve prints a one-time link on the first start only; it sets the admin\'s password once, and the admin signs in with it',
    async () => {
      const dataDir = tempDir();
      const first = await serve({ DATA_DIR: dataDir });
      try {
        await expect.poll(() => signInLinkOnStderr(first.stderr())).toBeDefined();
        const link = signInLinkOnStderr(first.stderr())!;
        expect(link.startsWith(`${first.url}/console/welcome#token=tbl_`)).toBe(true);
        expect(JSON.stringify(first.lines)).not.toContain(link.split('#token=')[1]);
        // The page the link opens is the console's.
        expect((await fetch(link.split('#')[0]!)).status).toBe(200);
        const token = link.split('#token=')[1]!;
        const accept = (password: string) =>
          fetch(`${first.url}/api/invitations/accept`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ invitation: { token, password } }) });
        const accepted = await accept('the admin\'s own password');
        expect(accepted.status).toBe(200);
        const { invitation } = (await accepted.json()) as { invitation: { email: string } };
        const signIn = (password: string) =>
          fetch(`${first.url}/api/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user: { email: invitation.email, password } }) });
        const signedIn = await signIn('the admin\'s own password');
        expect(signedIn.status).toBe(200);
        const { access_token } = (await signedIn.json()) as { access_token: string };
        const me = (await (await fetch(`${first.url}/api/user`, { headers: { authorization: `Bearer ${access_token}` } })).json()) as { user: { role: string } };
        expect(me.user.role).toBe('admin');
        // Once: the same link again is refused, and the password stays.
        const again = await accept('someone else\'s password');
        expect(again.status).toBe(410);
        expect(((await again.json()) as { error_code: string }).error_code).toBe('invitation_used');
        expect((await signIn('someone else\'s password')).status).toBe(401);
      } finally {
        await first.stop();
      }
      const second = await serve({ DATA_DIR: dataDir });
      try {
        expect(signInLinkOnStderr(second.stderr())).toBeUndefined();
      } finally {
        await second.stop();
      }
    },
    SLOW * 2,
  );
});

describe('the bootstrap admin token', () => {
  it(
    'is printed on standard error whatever LOG_LEVEL says, and never logged',
    async () => {
      const dataDir = tempDir();
      const port = await freePort();
      const child = spawn(process.execPath, [BIN, 'serve'], { env: envWith({ PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'error' }) });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      try {
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve, reject) => {
          // Failing within the test's time, so the finally below still stops the child.
          timer = setTimeout(() => reject(new Error(`no token on stderr: ${stderr}`)), SLOW / 2);
          child.stderr.on('data', (chunk: Buffer) => {
            stderr += chunk.toString();
            // Not on the default port, so the hint carries --url before the token.
            if (/npx tourbook demo --url \S+ --token \S+\n/.test(stderr)) resolve();
          });
          child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
        }).finally(() => clearTimeout(timer));
        const token = tokenOnStderr(stderr)!;
        expect(token).toMatch(/^tb_/);
        expect(stdout).not.toContain(token);
        const me = await fetch(`http://127.0.0.1:${port}/api/user`, { headers: { authorization: `Bearer ${token}` } });
        expect(me.status).toBe(200);
      } finally {
        await new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        });
      }
    },
    SLOW,
  );
});

describe('a server deployment and its master key (decision 0207)', () => {
  it('refuses to start without REPORTS_MASTER_KEY, in one line saying how to make one, before touching the database', () => {
    // Nothing listens on port 1: the refusal must come before any connection attempt.
    for (const role of ['all', 'api', 'worker']) {
      const result = run(['serve', '--role', role], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/tourbook', PORT: '0' });
      expect(result.status, role).toBe(2);
      const lines = result.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^tourbook serve: DATABASE_URL is set but REPORTS_MASTER_KEY is not/);
      expect(lines[0]).toContain('npx tourbook keys generate');
      expect(result.stdout).toBe('');
    }
  });

  it('keys generate prints a new base64 256-bit key, alone on its line', () => {
    const [first, second] = [run(['keys', 'generate']), run(['keys', 'generate'])];
    expect(first.status, first.stderr).toBe(0);
    const key = first.stdout.trim();
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
    expect(first.stdout).toBe(`${key}\n`);
    expect(second.stdout.trim()).not.toBe(key);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('migrate on PostgreSQL', () => {
  it(
    'names the server database it migrated',
    async () => {
      const base = process.env.TEST_DATABASE_URL!;
      const name = `tb_cli_${process.pid}_${Date.now().toString(36)}`;
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      try {
        const url = new URL(base);
        url.pathname = `/${name}`;
        const result = run(['migrate'], { DATABASE_URL: url.toString() });
        expect(result.status, result.stderr).toBe(0);
        expect(result.stdout).toContain(`Migrated the PostgreSQL database at ${url.toString()}`);
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      }
    },
    SLOW,
  );
});
