// Two imports of one file at once (contract §14): only a real PostgreSQL runs them side by side (PGlite has one
// session and serializes everything), so run with TEST_DATABASE_URL set; on PGlite they are reported as skipped.
import { describe, expect, it } from 'vitest';
import { bulkRace } from '../../../../test/bulk-race.ts';
import { expectOk } from '../../../../test/factories.ts';

const ITEMS = 30;

describe.skipIf(!process.env.TEST_DATABASE_URL)('concurrent imports of one file on PostgreSQL', () => {
  const { world, item } = bulkRace();

  it('creates each booking once when two bulk creates with other keys carry the same external ids', { timeout: 120_000 }, async () => {
    // Another browser, session or script: its own idempotency keys, so only the external ids can tell the rows apart.
    const { tenant } = world;
    const itemsOf = (run: string) => Array.from({ length: ITEMS }, (_, i) => item(`${run}-${i}`, `#${1001 + i}`));
    const [one, two] = await Promise.all([
      tenant.admin.post('/api/hailing/bookings/bulk', { bookings: itemsOf('browser') }),
      tenant.admin.post('/api/hailing/bookings/bulk', { bookings: [...itemsOf('script')].reverse() }),
    ]);
    expect(one!.status).toBe(200);
    expect(two!.status).toBe(200);
    const answers = [...one!.body.results, ...two!.body.results] as { status: number; booking: { id: string; external_id: string } | null; error: { error_code: string; booking_id?: string } | null }[];
    const others = answers.filter((a) => !(a.status === 201 || (a.status === 409 && a.error?.error_code === 'external_id_exists')));
    expect(others.map((a) => [a.status, a.error?.error_code])).toEqual([]);
    const created = answers.filter((a) => a.status === 201).map((a) => a.booking!);
    expect(created).toHaveLength(ITEMS);
    expect(new Set(created.map((b) => b.external_id)).size).toBe(ITEMS);
    // Each refusal names the booking the other import made.
    const ids = new Set(created.map((b) => b.id));
    expect(answers.filter((a) => a.status === 409).every((a) => ids.has(a.error!.booking_id!))).toBe(true);
    const listed = await expectOk(tenant.admin.get('/api/hailing/bookings?limit=100&view=compact'));
    expect(listed.bookings).toHaveLength(ITEMS);
  });
});
