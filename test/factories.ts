// Test factories: create domain objects through the HTTP API, as an integrator would.
import type { Client } from './app.ts';

export async function expectOk<T = any>(res: Promise<{ status: number; body: T; text: string }>, status = 200): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON bodies
  const r = await res;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${r.text}`);
  return r.body;
}

export type { Client };
