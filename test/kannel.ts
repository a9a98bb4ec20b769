// A real Kannel SMS gateway on loopback for the SMS tests (issue 40): Debian's bearerbox and smsbox with the fakesmsc
// carrier, on free ports with a kannel.conf written to a temp directory. fakesmsc prints every SMS the gateway hands
// it and sends what a test writes to its stdin as a phone's reply; bearerbox answers each SMS with the receipts
// 8 (accepted by the SMSC) and 1 (delivered), which smsbox fetches from the message's dlr-url. Kannel missing is a
// failure, never a skip (`.ci/run` installs `kannel kannel-extras`).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './pg-cluster.ts';

const BEARERBOX = ['/usr/sbin/bearerbox', '/usr/bin/bearerbox'];
const SMSBOX = ['/usr/sbin/smsbox', '/usr/bin/smsbox'];
const FAKESMSC = ['/usr/lib/kannel/test/fakesmsc'];

function binary(candidates: string[]): string {
  const found = candidates.find((c) => fs.existsSync(c));
  if (!found) throw new Error(`Kannel is not installed (${candidates[0]} is missing): apt-get install kannel kannel-extras`);
  return found;
}

/** One SMS as fakesmsc — the carrier — received it. */
export interface CarriedSms {
  from: string;
  to: string;
  /** fakesmsc's type: `text` for GSM-7, `ucs2` for UCS-2 (then `text` is still decoded for the reader). */
  type: string;
  text: string;
}

export interface KannelGateway {
  /** smsbox's sendsms URL (SMS_URL). */
  sendsmsUrl: string;
  username: string;
  password: string;
  /** Every SMS the carrier received, in order. */
  carried: CarriedSms[];
  /** A phone's reply `from` → `to` through the carrier (Kannel fetches the inbound URL with it). */
  reply(from: string, to: string, text: string): void;
  /** Waits (real time, up to `ms`) until `check` holds; throws with the gateway's logs when it does not. */
  until(check: () => boolean | Promise<boolean>, what: string, ms?: number): Promise<void>;
  close(): Promise<void>;
}

async function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** Waits until `port` takes connections; fails at once when `child` has exited (a port taken meanwhile, a bad conf). */
async function waitForPort(port: number, what: string, child: ChildProcess, until: number, output: readonly string[]): Promise<void> {
  while (!(await portOpen(port))) {
    const exited = child.exitCode !== null || child.signalCode !== null;
    if (exited || Date.now() > until) throw new Error(`Kannel's ${what} did not open port ${port}${exited ? ` (it exited: ${child.exitCode ?? child.signalCode})` : ''}\n${output.join('').slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** How long one start may wait for a box's port, and how many starts (fresh ports each) a gateway gets. */
const PORT_WAIT_MS = 20_000;
const STARTS = 3;
/** All starts together stay within the test hooks' 60 s (vitest.config.ts). */
const START_DEADLINE_MS = 50_000;

export interface KannelOptions {
  /** Where smsbox fetches a reply (%p the sender, %a the text are Kannel's escapes). */
  inboundUrl: string;
  /** bearerbox's and smsbox's log level, in their files and on their output: 1 (info, the default) … 3 (errors only). */
  logLevel?: number;
  /** Called with each SMS the carrier received and the moment it was read from fakesmsc's output (Date.now()). */
  onCarried?: (sms: CarriedSms, at: number) => void;
}

/**
 * Starts the gateway; a start that fails (a box that exits, or a port not open within PORT_WAIT_MS on a loaded
 * machine: CI's parallel suites) is closed and made again on fresh ports, up to STARTS times.
 */
export async function startKannel(options: KannelOptions): Promise<KannelGateway> {
  const deadline = Date.now() + START_DEADLINE_MS;
  let failure: unknown;
  for (let start = 1; start <= STARTS && Date.now() < deadline; start++) {
    try {
      return await startOnce(options, deadline);
    } catch (err) {
      failure = err;
    }
  }
  throw failure;
}

async function startOnce(options: KannelOptions, deadline: number): Promise<KannelGateway> {
  const logLevel = options.logLevel ?? 1;
  const [bearerbox, smsbox, fakesmsc] = [binary(BEARERBOX), binary(SMSBOX), binary(FAKESMSC)];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-kannel-'));
  const [adminPort, boxPort, smscPort, sendsmsPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const username = 'tourbook';
  const password = 'kannel-test-password';
  const conf = `group = core
admin-port = ${adminPort}
admin-password = ${password}
admin-allow-ip = 127.0.0.1
smsbox-port = ${boxPort}
box-allow-ip = 127.0.0.1
log-file = "${dir}/bearerbox.log"
log-level = ${logLevel}
dlr-storage = internal

group = smsc
smsc = fake
smsc-id = fake
port = ${smscPort}
connect-allow-ip = 127.0.0.1

group = smsbox
bearerbox-host = 127.0.0.1
bearerbox-port = ${boxPort}
sendsms-port = ${sendsmsPort}
log-file = "${dir}/smsbox.log"
log-level = ${logLevel}

group = sendsms-user
username = ${username}
password = ${password}
max-messages = 10
concatenation = true

group = sms-service
keyword = default
catch-all = true
max-messages = 0
get-url = "${options.inboundUrl}"
`;
  fs.writeFileSync(path.join(dir, 'kannel.conf'), conf);
  const children: ChildProcess[] = [];
  const output: string[] = [];
  const run = (bin: string, args: string[]) => {
    const child = spawn(bin, args, { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
    children.push(child);
    const name = path.basename(bin);
    child.stdout!.on('data', (d: Buffer) => output.push(`${name}: ${d.toString()}`));
    child.stderr!.on('data', (d: Buffer) => output.push(`${name}: ${d.toString()}`));
    return child;
  };
  const carried: CarriedSms[] = [];
  const gateway: KannelGateway = {
    sendsmsUrl: `http://127.0.0.1:${sendsmsPort}/cgi-bin/sendsms`,
    username,
    password,
    carried,
    reply: (from, to, text) => carrier.stdin!.write(`${from} ${to} text ${text.replace(/\n/g, ' ')}\n`),
    async until(check, what, ms = 10_000) {
      const until = Date.now() + ms;
      while (!(await check())) {
        if (Date.now() > until) {
          const logs = ['bearerbox.log', 'smsbox.log'].map((f) => (fs.existsSync(path.join(dir, f)) ? fs.readFileSync(path.join(dir, f), 'utf8').split('\n').slice(-15).join('\n') : '')).join('\n');
          throw new Error(`Kannel: ${what} did not happen within ${ms} ms\n${output.join('').slice(-2000)}\n${logs}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async close() {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGTERM');
              setTimeout(() => child.kill('SIGKILL'), 3000).unref();
            }),
        ),
      );
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  let carrier: ChildProcess;
  try {
    const bearer = run(bearerbox, ['-v', String(logLevel), 'kannel.conf']);
    await waitForPort(smscPort, 'bearerbox', bearer, Math.min(deadline, Date.now() + PORT_WAIT_MS), output);
    // Interactive fakesmsc: no generated messages, stdin lines are the phone's replies.
    carrier = run(fakesmsc, ['-H', '127.0.0.1', '-r', String(smscPort), '-i', '0']);
    // "… Got message 1: <from to text The text>" then the next log line; the text may span lines (ucs2: url-encoded UTF-16BE).
    let pending = '';
    const GOT = /Got message \d+: <(\S+) (\S+) (\S+) ([\s\S]*?)>\r?\n(?=\d{4}-\d\d-\d\d |$)/;
    const parse = (d: Buffer) => {
      pending += d.toString('utf8');
      for (let m = GOT.exec(pending); m; m = GOT.exec(pending)) {
        const [, from, to, type, raw] = m as unknown as [string, string, string, string, string];
        const sms = { from, to, type, text: type === 'ucs2' ? Buffer.from(unescape(raw), 'latin1').swap16().toString('utf16le') : raw };
        carried.push(sms);
        options.onCarried?.(sms, Date.now());
        pending = pending.slice(m.index + m[0].length);
      }
    };
    // fakesmsc logs to stderr and stdout alike.
    carrier.stdout!.on('data', parse);
    carrier.stderr!.on('data', parse);
    const smsBox = run(smsbox, ['-v', String(logLevel), 'kannel.conf']);
    await waitForPort(sendsmsPort, 'smsbox', smsBox, Math.min(deadline, Date.now() + PORT_WAIT_MS), output);
  } catch (err) {
    await gateway.close();
    throw err;
  }
  return gateway;
}
