// The delivery HTTP client: node:http(s) with keep-alive agents, a hard timeout, and an address check at connect time.
import http from 'node:http';
import https from 'node:https';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { addressProblem, ipLiteral, isPrivateAddress } from './targets.ts';

export const DELIVERY_TIMEOUT_MS = 15_000;
/** Receivers' answers are logged, never used: read at most this much of a response body. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface PostResult {
  statusCode: number | null;
  retryAfter: string | undefined;
  durationMs: number;
  error: string | null;
}

/**
 * Refuses to connect to private addresses, whatever the name resolved to when the subscription was saved: the
 * decision is on the address the socket will use. Redirects are never followed (node:http does not).
 */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    const allowed = addresses.filter((a) => !isPrivateAddress(a.address));
    if (!allowed.length) {
      const problem = addresses.map((a) => addressProblem(a.address)).join('; ');
      return callback(Object.assign(new Error(`${hostname} resolves to no public address: ${problem}`), { code: 'EPRIVATE' }), '', 0);
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
    const first = allowed[0]!;
    callback(null, first.address, first.family);
  });
};

const agentOptions = { keepAlive: true, maxSockets: 64 };
const agents = {
  open: { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) },
  guarded: {
    http: new http.Agent({ ...agentOptions, lookup: publicOnlyLookup } as http.AgentOptions),
    https: new https.Agent({ ...agentOptions, lookup: publicOnlyLookup } as https.AgentOptions),
  },
};

export function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { allowPrivate: boolean; timeoutMs?: number },
): Promise<PostResult> {
  const started = performance.now();
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const agent = (options.allowPrivate ? agents.open : agents.guarded)[secure ? 'https' : 'http'];
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  // Node calls the agent's lookup only for names: an IP-literal URL is judged here, before any socket exists.
  const literal = options.allowPrivate ? null : ipLiteral(target.hostname);
  const refused = literal ? addressProblem(literal) : null;
  if (refused) return Promise.resolve({ statusCode: null, retryAfter: undefined, durationMs: 0, error: `EPRIVATE: not connecting: ${refused}` });
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<PostResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: Math.round(performance.now() - started) });
    };
    const request = (secure ? https : http).request(
      target,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'Tourbook-Webhooks/1' },
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) response.destroy();
        });
        const done = () =>
          finish({ statusCode: response.statusCode ?? null, retryAfter: headerValue(response.headers['retry-after']), error: null });
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    // One deadline for connect, send and answer: a receiver that trickles bytes still times out.
    const timer = setTimeout(() => {
      request.destroy();
      finish({ statusCode: null, retryAfter: undefined, error: `timeout after ${timeoutMs} ms` });
    }, timeoutMs);
    request.on('error', (err: NodeJS.ErrnoException) =>
      finish({ statusCode: null, retryAfter: undefined, error: err.code ? `${err.code}: ${err.message}` : err.message }),
    );
    request.end(body);
  });
}

const headerValue = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
