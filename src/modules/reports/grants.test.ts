// The grant matrix through the HTTP API: every grant kind × every role × list/show/download/complete/fail, grant
// validation for managers, revocation and the activity log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createOrganization, createUser, expectOk, type Client, type CreatedUser } from '../../../test/factories.ts';
import { reportBody } from './test-helpers.ts';

let t: TestApp;
let tenant: TestTenant;
let orgA: string;
let orgB: string;
let people: Record<'owner' | 'admin' | 'managerA' | 'managerB' | 'driverA' | 'customer', CreatedUser>;

beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.createTenant();
  orgA = (await createOrganization(tenant.admin)).id;
  orgB = (await createOrganization(tenant.admin)).id;
  people = {
    owner: await createUser(tenant.admin, { role: 'admin' }),
    admin: await createUser(tenant.admin, { role: 'admin' }),
    managerA: await createUser(tenant.admin, { role: 'manager', organization_ids: [orgA] }),
    managerB: await createUser(tenant.admin, { role: 'manager', organization_ids: [orgB] }),
    driverA: await createUser(tenant.admin, { role: 'driver', organization_ids: [orgA] }),
    customer: await createUser(tenant.admin, { role: 'customer' }),
  };
});
afterAll(async () => t?.close());

const file = { name: 'r.txt', content_type: 'text/plain', content_base64: Buffer.from('matrix').toString('base64') };

type Person = keyof typeof people;
const ROLES: Person[] = ['admin', 'managerA', 'managerB', 'driverA', 'customer'];

/** Grant kind → the people it shows the report to (the owner, an admin, is reached only by all_admins). */
const GRANTS: [string, () => unknown, Person[]][] = [
  ['all_admins', () => ({ type: 'all_admins' }), ['admin']],
  ['organization_managers of A', () => ({ type: 'organization_managers', organization_id: orgA }), ['managerA']],
  ['user: the driver', () => ({ type: 'user', user_id: people.driverA.id }), ['driverA']],
  ['user: the customer', () => ({ type: 'user', user_id: people.customer.id }), ['customer']],
  ['user: manager B', () => ({ type: 'user', user_id: people.managerB.id }), ['managerB']],
];

async function create(grant: unknown, withFile: boolean): Promise<string> {
  const body = reportBody({ grants: [grant], ...(withFile ? { file } : {}) });
  return (await expectOk(people.owner.client.post('/api/reports', body), 201)).report.id;
}

describe('the grant matrix', () => {
  describe.each(GRANTS)('a report shared with %s', (_name, grant, audience) => {
    it.each(ROLES)('%s: list, show and download follow the grant; complete and fail only for an admin who sees it (or the creator)', async (who) => {
      const client: Client = people[who].client;
      const sees = audience.includes(who);
      const ready = await create(grant(), true);
      const listed = (await expectOk(client.get('/api/reports?limit=100'))).reports.map((r: { id: string }) => r.id);
      expect(listed.includes(ready)).toBe(sees);
      expect((await client.get(`/api/reports/${ready}`)).status).toBe(sees ? 200 : 404);
      const download = await client.get(`/api/reports/${ready}/download`);
      expect(download.status).toBe(sees ? 200 : 404);
      if (sees) expect(download.text).toBe('matrix');

      // Complete/fail: the creator or an admin who can see the report; others who see it 403, the rest 404 — except
      // drivers and customers, whose role may never do this (403, docs/api-guide.md "Errors").
      const roleMayNever = who === 'driverA' || who === 'customer';
      const manage = roleMayNever ? 403 : sees ? (who === 'admin' ? 200 : 403) : 404;
      const pendingA = await create(grant(), false);
      expect((await client.post(`/api/reports/${pendingA}/complete`, { file })).status).toBe(manage);
      const pendingB = await create(grant(), false);
      expect((await client.post(`/api/reports/${pendingB}/fail`, { reason: 'no data' })).status).toBe(manage);
    });

    it('the creator completes and fails it even without a grant of its own, and reads it only through one', async () => {
      const pending = await create(grant(), false);
      const ownerSees = audience.includes('admin'); // the owner is an admin
      expect((await people.owner.client.get(`/api/reports/${pending}`)).status).toBe(ownerSees ? 200 : 404);
      expect((await expectOk(people.owner.client.post(`/api/reports/${pending}/complete`, { file }))).report.status).toBe('ready');
      const other = await create(grant(), false);
      expect((await expectOk(people.owner.client.post(`/api/reports/${other}/fail`, {}))).report.status).toBe('failed');
    });
  });

  it('combines grants on one report: each grant adds its audience', async () => {
    const body = reportBody({ grants: [{ type: 'organization_managers', organization_id: orgB }, { type: 'user', user_id: people.customer.id }], file });
    const id = (await expectOk(people.owner.client.post('/api/reports', body), 201)).report.id;
    for (const who of ROLES) expect((await people[who].client.get(`/api/reports/${id}`)).status).toBe(['managerB', 'customer'].includes(who) ? 200 : 404);
  });

  it('lets no driver or customer create a report (403)', async () => {
    for (const who of ['driverA', 'customer'] as const) {
      const res = await people[who].client.post('/api/reports', reportBody({ grants: [{ type: 'user', user_id: people[who].id }] }));
      expect(res.status).toBe(403);
      expect(res.body.error_code).toBe('forbidden');
    }
  });

  it("lets a manager share only with its own organizations' managers and the users it can see (422 with the grant's pointer)", async () => {
    const manager = people.managerA.client;
    const ok = reportBody({ grants: [{ type: 'organization_managers', organization_id: orgA }, { type: 'user', user_id: people.driverA.id }] });
    expect((await manager.post('/api/reports', ok)).status).toBe(201);
    const cases: [unknown, number, string, string][] = [
      [{ type: 'all_admins' }, 422, 'grant_not_allowed', '/report/grants/1'],
      [{ type: 'organization_managers', organization_id: orgB }, 422, 'grant_not_allowed', '/report/grants/1'],
      [{ type: 'user', user_id: people.customer.id }, 422, 'validation_failed', '/report/grants/1/user_id'],
      [{ type: 'user', user_id: people.managerB.id }, 422, 'validation_failed', '/report/grants/1/user_id'],
      [{ type: 'user', user_id: '01900000-0000-7000-8000-000000000000' }, 422, 'validation_failed', '/report/grants/1/user_id'],
    ];
    for (const [grant, status, code, pointer] of cases) {
      const res = await manager.post('/api/reports', reportBody({ grants: [{ type: 'user', user_id: people.managerA.id }, grant] }));
      expect(res.status).toBe(status);
      expect(res.body.error_code).toBe(code);
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([pointer]);
    }
  });

  it('refuses unknown organizations and users for admins too, and bad bodies with pointers', async () => {
    const unknown = '01900000-0000-7000-8000-000000000000';
    const res = await tenant.admin.post('/api/reports', reportBody({ grants: [{ type: 'organization_managers', organization_id: unknown }] }));
    expect(res.status).toBe(422);
    expect(res.body.errors[0].pointer).toBe('/report/grants/0/organization_id');
    const empty = await tenant.admin.post('/api/reports', reportBody({ grants: [] }));
    expect(empty.status).toBe(422);
    const past = await tenant.admin.post('/api/reports', reportBody({ expires_at: new Date(t.clock.now().getTime() - 1000).toISOString() }));
    expect(past.body.errors[0].pointer).toBe('/report/expires_at');
    const tooLate = await tenant.admin.post('/api/reports', reportBody({ expires_at: new Date(t.clock.now().getTime() + 367 * 86_400_000).toISOString() }));
    expect(tooLate.body.errors[0].pointer).toBe('/report/expires_at');
  });

  it('revokes a grant at once: the next request of who lost access is 404; the activity lists downloads and refusals', async () => {
    const body = reportBody({ grants: [{ type: 'user', user_id: people.driverA.id }, { type: 'user', user_id: people.customer.id }], file });
    const id = (await expectOk(people.owner.client.post('/api/reports', body), 201)).report.id;
    await expectOk(people.driverA.client.get(`/api/reports/${id}/download`));
    // Only the creator and admins who see the report read the activity or revoke.
    expect((await people.driverA.client.get(`/api/reports/${id}/activity`)).status).toBe(403);
    expect((await people.admin.client.delete(`/api/reports/${id}/grants/0`)).status).toBe(404);
    const revoked = await expectOk(people.owner.client.delete(`/api/reports/${id}/grants/0`));
    expect(revoked.report.grants).toEqual([{ type: 'user', user_id: people.customer.id }]);
    expect((await people.driverA.client.get(`/api/reports/${id}/download`)).status).toBe(404);
    expect((await people.driverA.client.get(`/api/reports/${id}`)).status).toBe(404);
    expect((await people.owner.client.delete(`/api/reports/${id}/grants/5`)).status).toBe(404);
    const activity = (await expectOk(people.owner.client.get(`/api/reports/${id}/activity`))).activity;
    expect(activity.map((a: { user_id: string; outcome: string }) => [a.user_id, a.outcome])).toEqual([
      [people.driverA.id, 'not_visible'],
      [people.driverA.id, 'downloaded'],
    ]);
    expect(activity[0]).toMatchObject({ action: 'download', at: expect.any(String) });
  });
});
