// Webhook bench receiver: answers every POST at once with 204 and keeps (webhook-id, arrival ms) for the parent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { reportReady } from './_harness.ts';

export interface ReceiverInfo {
  url: string;
}

let arrivals: [string, number][] = [];
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    arrivals.push([String(req.headers['webhook-id'] ?? ''), Date.now()]);
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  // The parent asks for what arrived since it last asked.
  process.on('message', () => {
    process.send?.(arrivals);
    arrivals = [];
  });
  reportReady({ url: `http://127.0.0.1:${port}/hooks` } satisfies ReceiverInfo);
});
