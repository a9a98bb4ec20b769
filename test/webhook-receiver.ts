// A real HTTP receiver on loopback: records every webhook request and answers as the test scripts it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The sender's TCP port: with /proc, which process sent it (src/worker/workers.test.ts). */
  remotePort: number;
  /** The parsed envelope. */
  json: { id: string; type: string; resource_type: string; event: string; timestamp: string; data: Record<string, unknown>; actor: { type: string; id: string | null; api_key_id: string | null } | null };
}

/** What the receiver answers: a status (with headers), or `hang` to never answer (drives timeouts). */
export type Answer = { status: number; headers?: Record<string, string> } | 'hang';

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Answers the next requests in this order; after the script runs out, `fallback` (200 unless set). */
  script(...answers: Answer[]): void;
  fallback: Answer;
  /** Resolves once `count` requests have arrived (or rejects after `timeoutMs` of real time). */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const queue: Answer[] = [];
  const hanging = new Set<http.ServerResponse>();
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ path: req.url ?? '/', headers: req.headers, body, remotePort: req.socket.remotePort ?? 0, json: JSON.parse(body) });
      for (const waiter of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      const answer = queue.shift() ?? receiver.fallback;
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer.status, answer.headers ?? {});
      res.end('ok');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: WebhookReceiver = {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    fallback: { status: 200 },
    script: (...answers) => queue.push(...answers),
    waitFor: (count, timeoutMs = 10_000) =>
      received.length >= count
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`received ${received.length} of ${count} webhooks`)), timeoutMs);
            waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
          }),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return receiver;
}

/**
 * Verifies a received webhook with the independent `standardwebhooks` library. Its timestamp tolerance reads the
 * system clock, so the check runs with Date.now() at the test's clock for that one synchronous call.
 */
export function verifyWebhook(secret: string, webhook: ReceivedWebhook, now: Date): unknown {
  const realNow = Date.now;
  Date.now = () => now.getTime();
  try {
    return new Webhook(secret).verify(webhook.body, webhook.headers as Record<string, string>);
  } finally {
    Date.now = realNow;
  }
}
