// `tourbook serve` as a child process (the built bin/tourbook.js), for tests of what only a whole process shows:
// signals, several processes on one database, the database going away under it.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { freePort } from './pg-cluster.ts';

export const BIN = path.resolve(import.meta.dirname, '../bin/tourbook.js');

export interface ServeProcess {
  child: ChildProcess;
  /** The HTTP base URL (role api or all). */
  url: string;
  port: number;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the process exited. */
  exited: Promise<number | null>;
  /** Waits until GET `probe` answers 200 (or the process exits: then it throws with its standard error). */
  waitReady(probe?: string, timeoutMs?: number): Promise<void>;
  kill(signal?: NodeJS.Signals): void;
}

/** A master key for a server deployment (decision 0207): processes that share a database share it. */
export const newMasterKey = (): string => randomBytes(32).toString('base64');

/** Applies the migrations to a PostgreSQL database, as an operator does before the first start. */
export function migrate(databaseUrl: string): void {
  execFileSync(process.execPath, [BIN, 'migrate'], { env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' }, stdio: 'pipe' });
}

export async function spawnServe(env: Record<string, string>, args: string[] = []): Promise<ServeProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, [BIN, 'serve', ...args], {
    env: { ...process.env, HOST: '127.0.0.1', LOG_FORMAT: 'json', LOG_LEVEL: 'info', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let done = false;
  void exited.then(() => (done = true));
  const url = `http://127.0.0.1:${port}`;
  return {
    child,
    url,
    port,
    stdout: () => out,
    stderr: () => err,
    exited,
    async waitReady(probe = '/readyz', timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (done) throw new Error(`the process exited with ${child.exitCode}: ${err}${out}`);
        if (Date.now() > deadline) throw new Error(`the process did not get ready: ${err}${out}`);
        const ok = await fetch(`${url}${probe}`).then((r) => r.ok, () => false);
        if (ok) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    kill: (signal = 'SIGTERM') => void (done || child.kill(signal)),
  };
}
