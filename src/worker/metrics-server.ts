// The worker role's own small HTTP server: /healthz and /metrics, so that a process without the API is scraped and
// probed like the others (decision 1403). Nothing else: the worker takes no requests.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError, toProblem } from '../http/errors.ts';
import { scrapeProcessMetrics } from '../http/metrics.ts';

export interface MetricsServer {
  /** The port it listens on (useful when it was asked for 0). */
  port: number;
  close(): Promise<void>;
}

const json = (res: http.ServerResponse, status: number, body: unknown, type = 'application/json') => {
  res.writeHead(status, { 'content-type': type, connection: 'close' });
  res.end(JSON.stringify(body));
};

const problem = (res: http.ServerResponse, error: AppError) => json(res, error.status, toProblem(error, 'en'), 'application/problem+json');

export async function startMetricsServer(port: number, host: string): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const url = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return problem(res, new AppError(405, 'method_not_allowed', 'The worker serves GET /healthz and GET /metrics only.'));
    if (url === '/healthz') return json(res, 200, { status: 'ok' });
    if (url === '/metrics') {
      scrapeProcessMetrics().then(
        ({ contentType, body }) => {
          res.writeHead(200, { 'content-type': contentType });
          res.end(body);
        },
        () => problem(res, new AppError(500, 'internal_error', { key: 'error.internal' })),
      );
      return;
    }
    problem(res, new AppError(404, 'not_found', 'The worker serves GET /healthz and GET /metrics only.'));
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen({ port, host }, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
