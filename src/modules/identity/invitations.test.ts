// Invitations and one-time sign-in links (decision 1602): an admin invites, the e-mail carries the link, the link sets
// the password once and before it expires; a new invitation replaces the old one; who may invite; and, on PostgreSQL,
// two accepts of one link at once set the password once.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/sql.ts';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createUser, expectOk } from '../../../test/factories.ts';
import { waitUntilSettledOrWaitingForALock } from '../../../test/locks.ts';
import { createBootstrapSignInLink } from './index.ts';

const PASSWORD = 'a new password, long enough';

describe('invitations', () => {
  let t: TestApp;
  let tenant: TestTenant;
  beforeAll(async () => {
    t = await buildTestApp({ publicUrl: 'https://tourbook.example' });
    tenant = await t.createTenant();
  });
  afterAll(async () => t?.close());

  /** The token in the newest invitation e-mail to `email` (the queued mail.send job's text). */
  const tokenMailedTo = async (email: string): Promise<{ token: string; text: string; subject: string }> => {
    const rows = await queryRows<{ payload: { to: string[]; text: string; subject: string } }>(
      t.deps.db,
      sql`SELECT payload FROM jobs WHERE tenant_id = ${tenant.tenantId} AND kind = 'mail.send' ORDER BY created_at DESC, id DESC`,
    );
    const mail = rows.find((r) => r.payload.to.includes(email));
    if (!mail) throw new Error(`no mail to ${email}`);
    const token = /https:\/\/tourbook\.example\/console\/welcome#token=(\S+)/.exec(mail.payload.text)?.[1];
    if (!token) throw new Error(`no link in ${mail.payload.text}`);
    return { token, text: mail.payload.text, subject: mail.payload.subject };
  };
  const signIn = (email: string, password: string) => t.anonymous.post('/api/signin', { user: { email, password } });

  it('e-mails a link that sets the password once; then the user signs in with it', async () => {
    const user = await createUser(tenant.admin, { role: 'manager', name: 'Mia Manager' });
    const invited = await expectOk(tenant.admin.post(`/api/users/${user.id}/invitation`, undefined, { headers: { 'accept-language': 'de' } }), 201);
    expect(invited.invitation).toEqual({ user_id: user.id, email: user.user.email, expires_at: new Date(t.clock.now().getTime() + 7 * 24 * 3600_000).toISOString() });
    const mail = await tokenMailedTo(user.user.email);
    expect(mail.subject).toBe('Ihre Einladung zu Tourbook');
    expect(mail.text).toContain('Hallo Mia Manager');
    // The token is stored only as its hash.
    const stored = await queryRows<{ token_hash: string }>(t.deps.db, sql`SELECT token_hash FROM sign_in_links WHERE user_id = ${user.id}`);
    expect(stored.map((r) => r.token_hash)).not.toContain(mail.token);

    expect((await signIn(user.user.email, PASSWORD)).status).toBe(401);
    const accepted = await expectOk(t.anonymous.post('/api/invitations/accept', { invitation: { token: mail.token, password: PASSWORD } }));
    expect(accepted.invitation).toEqual({ user_id: user.id, email: user.user.email, tenant_id: tenant.tenantId });
    expect((await signIn(user.user.email, PASSWORD)).status).toBe(200);

    // Used once: a second accept (another password) is refused and changes nothing.
    const again = await t.anonymous.post('/api/invitations/accept', { invitation: { token: mail.token, password: 'someone else’s password' } });
    expect(again.status).toBe(410);
    expect(again.body.error_code).toBe('invitation_used');
    expect((await signIn(user.user.email, PASSWORD)).status).toBe(200);
  });

  it('expires after 7 days, and a new invitation replaces the earlier link', async () => {
    const user = await createUser(tenant.admin, { role: 'driver' });
    await expectOk(tenant.admin.post(`/api/users/${user.id}/invitation`), 201);
    const first = await tokenMailedTo(user.user.email);
    t.clock.advance(7 * 24 * 3600_000);
    const late = await t.anonymous.post('/api/invitations/accept', { invitation: { token: first.token, password: PASSWORD } });
    expect(late.status).toBe(410);
    expect(late.body.error_code).toBe('invitation_expired');
    expect(late.body.detail).toContain('expired');

    await expectOk(tenant.admin.post(`/api/users/${user.id}/invitation`), 201);
    const second = await tokenMailedTo(user.user.email);
    expect(second.token).not.toBe(first.token);
    t.clock.advance(7 * 24 * 3600_000 - 1000);
    // The earlier link is used up by the new invitation, even inside its time.
    await expectOk(tenant.admin.post(`/api/users/${user.id}/invitation`), 201);
    const third = await tokenMailedTo(user.user.email);
    expect((await t.anonymous.post('/api/invitations/accept', { invitation: { token: second.token, password: PASSWORD } })).body.error_code).toBe('invitation_used');
    await expectOk(t.anonymous.post('/api/invitations/accept', { invitation: { token: third.token, password: PASSWORD } }));
  });

  it('refuses an unknown token, a short password, a deactivated user; only admins invite, and only users they see', async () => {
    const unknown = await t.anonymous.post('/api/invitations/accept', { invitation: { token: 'tbl_nothing', password: PASSWORD } });
    expect(unknown.status).toBe(404);
    const user = await createUser(tenant.admin, { role: 'driver' });
    await expectOk(tenant.admin.post(`/api/users/${user.id}/invitation`), 201);
    const { token } = await tokenMailedTo(user.user.email);
    const short = await t.anonymous.post('/api/invitations/accept', { invitation: { token, password: 'short' } });
    expect(short.status).toBe(422);
    expect(short.body.errors[0].pointer).toBe('/invitation/password');

    const manager = await createUser(tenant.admin, { role: 'manager', password: PASSWORD });
    // A manager sees only users of its organizations: another one's user is 404, its own colleague 403.
    expect((await manager.client.post(`/api/users/${user.id}/invitation`)).status).toBe(404);
    expect((await manager.client.post(`/api/users/${manager.id}/invitation`)).status).toBe(403);
    const other = await t.createTenant();
    expect((await other.admin.post(`/api/users/${user.id}/invitation`)).status).toBe(404);

    await expectOk(tenant.admin.delete(`/api/users/${user.id}`));
    expect((await tenant.admin.post(`/api/users/${user.id}/invitation`)).body.error_code).toBe('user_deactivated');
    // A link sent before the user was deactivated stops working.
    expect((await t.anonymous.post('/api/invitations/accept', { invitation: { token, password: PASSWORD } })).status).toBe(404);
  });

  it('the bootstrap link sets the admin password once, within 24 hours', async () => {
    const admin = await createUser(tenant.admin, { role: 'admin' });
    const link = await createBootstrapSignInLink(t.deps, tenant.tenantId, admin.id);
    expect(link.url).toMatch(/^https:\/\/tourbook\.example\/console\/welcome#token=tbl_[0-9A-Za-z]{32}$/);
    expect(link.expires_at).toBe(new Date(t.clock.now().getTime() + 24 * 3600_000).toISOString());
    const token = link.url.split('#token=')[1]!;
    t.clock.advance(24 * 3600_000);
    expect((await t.anonymous.post('/api/invitations/accept', { invitation: { token, password: PASSWORD } })).body.error_code).toBe('invitation_expired');
    const fresh = (await createBootstrapSignInLink(t.deps, tenant.tenantId, admin.id)).url.split('#token=')[1]!;
    await expectOk(t.anonymous.post('/api/invitations/accept', { invitation: { token: fresh, password: PASSWORD } }));
    expect((await signIn(admin.user.email, PASSWORD)).status).toBe(200);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('invitations on PostgreSQL', () => {
  let t: TestApp;
  let tenant: TestTenant;
  beforeAll(async () => {
    t = await buildTestApp();
    tenant = await t.createTenant();
  });
  afterAll(async () => t?.close());

  it('two accepts of one link at once accept it once', async () => {
    const user = await createUser(tenant.admin, { role: 'admin' });
    const token = (await createBootstrapSignInLink(t.deps, tenant.tenantId, user.id)).url.split('#token=')[1]!;
    // Another session holds the link's row while two accepts arrive: both must wait for it, then one wins.
    const other = await t.deps.database.pool!.connect();
    let answers: { status: number; body: { error_code?: string } }[];
    try {
      await other.query('BEGIN');
      await other.query('SELECT 1 FROM sign_in_links WHERE tenant_id = $1 AND user_id = $2 FOR UPDATE', [tenant.tenantId, user.id]);
      const first = t.anonymous.post('/api/invitations/accept', { invitation: { token, password: 'the first password' } });
      const second = t.anonymous.post('/api/invitations/accept', { invitation: { token, password: 'the second password' } });
      // Without the lock both read the link unused here and both set a password.
      await waitUntilSettledOrWaitingForALock(t.deps.database.pool!, Promise.all([first, second]), 2);
      await other.query('COMMIT');
      answers = await Promise.all([first, second]);
    } finally {
      other.release();
    }
    expect(answers.map((a) => a.status).sort()).toEqual([200, 410]);
    expect(answers.find((a) => a.status === 410)!.body.error_code).toBe('invitation_used');
    const winner = answers[0]!.status === 200 ? 'the first password' : 'the second password';
    const loser = winner === 'the first password' ? 'the second password' : 'the first password';
    expect((await t.anonymous.post('/api/signin', { user: { email: user.user.email, password: winner } })).status).toBe(200);
    expect((await t.anonymous.post('/api/signin', { user: { email: user.user.email, password: loser } })).status).toBe(401);
  });
});
