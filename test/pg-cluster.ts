// A PostgreSQL 15 cluster of the test's own, in a temporary folder on a free port: for tests that stop the database
// under a running server, or stream it to a replica. Run as the postgres user when the tests run as root (initdb
// refuses root). Needs Debian's postgresql-15 binaries; `available()` says whether they are there.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const BIN = '/usr/lib/postgresql/15/bin';

export interface PgCluster {
  port: number;
  dir: string;
  /** A URL of `database` on this cluster (default postgres). */
  url(database?: string): string;
  start(): void;
  /** A fast shutdown: sessions are ended with 57P01, new connections refused. */
  stop(): void;
  /** A streaming replica of this cluster (pg_basebackup -R), started. */
  replica(): Promise<PgCluster>;
  destroy(): void;
}

export const pgClusterAvailable = (): boolean => fs.existsSync(path.join(BIN, 'initdb'));

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a PostgreSQL binary as the postgres user when we are root. */
function run(binary: string, args: string[]): string {
  const file = path.join(BIN, binary);
  const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
  return execFileSync(command, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-pg-'));
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  return dir;
}

function cluster(dir: string, port: number): PgCluster {
  const data = path.join(dir, 'data');
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  const self: PgCluster = {
    port,
    dir,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start: () => void run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start']),
    stop: () => void run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    async replica() {
      const replicaDir = tempDir();
      // -c fast: a spread checkpoint (the default) kept the backup waiting for up to two minutes.
      run('pg_basebackup', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-D', path.join(replicaDir, 'data'), '-R', '-X', 'stream', '-c', 'fast']);
      const standby = cluster(replicaDir, await freePort());
      standby.start();
      return standby;
    },
    destroy: () => {
      try {
        self.stop();
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return self;
}

/** A new cluster, started: trust authentication for the postgres user over 127.0.0.1 (replication included). */
export async function startPgCluster(): Promise<PgCluster> {
  const dir = tempDir();
  run('initdb', ['-D', path.join(dir, 'data'), '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const c = cluster(dir, await freePort());
  c.start();
  return c;
}
