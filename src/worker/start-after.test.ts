import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { startWorker } from './loop.ts';
import { jobs } from './tables.ts';

// serve's worker waits for the first answered request (decision 0138): until its gate opens it must not touch the
// database, and it must stop cleanly if the process is stopped before that.
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const pendingJobs = async (): Promise<number> => (await t.deps.db.select({ n: count() }).from(jobs))[0]!.n;

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the background worker gated by startAfter', () => {
  it('runs no pass before its gate opens, then schedules the periodic jobs; stops before the gate without a pass', async () => {
    const before = await pendingJobs();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const gated = startWorker(t.deps, { startAfter: gate, pollMs: 10 });
    await settle(300); // ungated, the first pass would have scheduled the periodic jobs long before this
    expect(await pendingJobs()).toBe(before);
    open();
    await expect.poll(pendingJobs, { timeout: 10_000 }).toBeGreaterThan(before);
    await gated.stop();

    await t.deps.db.delete(jobs);
    const never = startWorker(t.deps, { startAfter: new Promise<void>(() => undefined), pollMs: 10 });
    await never.stop(); // returns although the gate never opens
    expect(await pendingJobs()).toBe(0);
  });
});
