// Races that only a real PostgreSQL can show (PGlite has one session and serializes everything): run with
// TEST_DATABASE_URL set; on PGlite they are reported as skipped.
import { describe, expect, it } from 'vitest';
import { bulkRace } from '../../../../test/bulk-race.ts';
import { expectOk } from '../../../../test/factories.ts';

const ITEMS = 30;
const CALLS = 3;

describe.skipIf(!process.env.TEST_DATABASE_URL)('concurrent bulk creates on PostgreSQL', () => {
  const { world, item } = bulkRace();

  it('creates each booking once when bulk calls with the same keys run at the same time', async () => {
    const { tenant } = world;
    const bookings = Array.from({ length: ITEMS }, (_, i) => item(`race-${i}`, `race-${i}`));
    // Reversed in one call, so that calls meet on the same keys from both ends.
    const calls = await Promise.all(
      Array.from({ length: CALLS }, (_, c) => tenant.admin.post('/api/hailing/bookings/bulk', { bookings: c % 2 ? [...bookings].reverse() : bookings })),
    );
    const byKey = new Map<string, { status: number; id: string | null }[]>();
    for (const [c, call] of calls.entries()) {
      expect(call.status).toBe(200);
      for (const result of call.body.results) {
        const key = (c % 2 ? [...bookings].reverse() : bookings)[result.index]!.idempotency_key;
        byKey.set(key, [...(byKey.get(key) ?? []), { status: result.status, id: result.booking?.id ?? null }]);
      }
    }
    for (const answers of byKey.values()) {
      // One call ran the create; the others replayed it or met it in flight (409, retry later): never a second booking.
      expect(answers.every((a) => a.status === 201 || a.status === 409)).toBe(true);
      expect(new Set(answers.flatMap((a) => (a.id ? [a.id] : []))).size).toBe(1);
    }
    const listed = await expectOk(tenant.admin.get('/api/hailing/bookings?limit=100&view=compact'));
    expect(listed.bookings).toHaveLength(ITEMS);
    const retried = await expectOk(tenant.admin.post('/api/hailing/bookings/bulk', { bookings }));
    expect(retried.results.every((r: { status: number; replayed: boolean }) => r.status === 201 && r.replayed)).toBe(true);
  });
});
