// One-time sign-in links (decision 1602): an admin invites a user by e-mail, the bootstrap admin gets one at the first
// start; whoever opens the link sets the user's password once, before the link expires, and then signs in as usual.
// Only the token's SHA-256 is stored; the token travels in the link's fragment, which browsers never send.
import { and, eq, isNull } from 'drizzle-orm';
import type { Deps } from '../../../deps.ts';
import type { Tx } from '../../../db/client.ts';
import type { Actor } from '../../../http/actor.ts';
import { invalidateCredentialCache } from '../../../http/auth.ts';
import { AppError, notFound, unprocessable } from '../../../http/errors.ts';
import type { Messages } from '../../../http/i18n.ts';
import { scheduleJob } from '../../../worker/jobs.ts';
import { newId } from '../../../shared/ids.ts';
import { hashPassword, randomBase62, sha256Hex } from '../../../shared/secrets.ts';
import { requireUser } from '../access.ts';
import { identityPermissions } from '../permissions.ts';
import * as repo from '../repository.ts';
import { signInLinks } from '../tables.ts';

export const INVITATION_TTL_MS = 7 * 24 * 3600_000;
export const BOOTSTRAP_LINK_TTL_MS = 24 * 3600_000;

export const messages: Messages = {
  'identity.invitation_used': {
    en: 'This link has been used already. Sign in with your password, or ask an admin for a new invitation.',
    de: 'Dieser Link wurde schon benutzt. Melden Sie sich mit Ihrem Passwort an oder bitten Sie einen Admin um eine neue Einladung.',
  },
  'identity.invitation_expired': {
    en: 'This link has expired. Ask an admin for a new invitation.',
    de: 'Dieser Link ist abgelaufen. Bitten Sie einen Admin um eine neue Einladung.',
  },
  'identity.invitee_deactivated': { en: 'The user is deactivated: it cannot be invited.', de: 'Der Benutzer ist deaktiviert: er kann nicht eingeladen werden.' },
  'identity.invitation_link': { en: 'invitation link', de: 'Einladungslink' },
};

export interface InvitationView {
  user_id: string;
  email: string;
  expires_at: string;
}

/** The console's page that takes the link (docs/console.md "Invitations and the first sign-in"). */
export const signInLinkUrl = (config: Deps['config'], token: string, base?: string): string =>
  `${(config.publicUrl ?? base ?? `http://${config.host}:${config.port}`).replace(/\/+$/, '')}/console/welcome#token=${token}`;

/** A new link for the user; earlier unused links of the same purpose stop working (only the newest is valid). */
async function issueLink(tx: Tx, tenantId: string, userId: string, purpose: 'invitation' | 'bootstrap', now: Date, ttlMs: number): Promise<{ token: string; expiresAt: Date }> {
  await tx
    .update(signInLinks)
    .set({ usedAt: now })
    .where(and(eq(signInLinks.tenantId, tenantId), eq(signInLinks.userId, userId), eq(signInLinks.purpose, purpose), isNull(signInLinks.usedAt)));
  const token = `tbl_${randomBase62(32)}`;
  const expiresAt = new Date(now.getTime() + ttlMs);
  await tx.insert(signInLinks).values({ tenantId, id: newId(), userId, purpose, tokenHash: sha256Hex(token), expiresAt, usedAt: null, createdAt: now });
  return { token, expiresAt };
}

/** `POST /api/users/{id}/invitation` (admins): e-mails the user a link to set its password. */
export async function inviteUser(deps: Deps, actor: Actor, id: string, lang: 'en' | 'de'): Promise<InvitationView> {
  const { user } = await requireUser(deps.db, actor, id);
  identityPermissions.require(actor, 'manage_users');
  if (user.deactivatedAt) throw unprocessable('user_deactivated', { key: 'identity.invitee_deactivated' });
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const tenant = await repo.findTenant(tx, actor.tenantId);
    const { token, expiresAt } = await issueLink(tx, actor.tenantId, user.id, 'invitation', now, INVITATION_TTL_MS);
    const until = expiresAt.toISOString().slice(0, 16).replace('T', ' ');
    const text =
      lang === 'de'
        ? `Hallo ${user.name},\n\nSie wurden zu Tourbook (${tenant?.name ?? ''}) eingeladen. Öffnen Sie diesen Link, um Ihr Passwort festzulegen (einmal gültig, bis ${until} UTC):\n\n${signInLinkUrl(deps.config, token)}\n\nIhre Anmeldung danach: ${user.email}\n`
        : `Hello ${user.name},\n\nYou have been invited to Tourbook (${tenant?.name ?? ''}). Open this link to set your password (it works once, until ${until} UTC):\n\n${signInLinkUrl(deps.config, token)}\n\nYou sign in with: ${user.email}\n`;
    // The mail.send job as mail/index.ts's enqueueMail queues it: that module imports identity, so identity cannot
    // import it back (src/architecture.test.ts, no import loop between files).
    const subject = lang === 'de' ? 'Ihre Einladung zu Tourbook' : 'Your invitation to Tourbook';
    await scheduleJob(tx, { tenantId: actor.tenantId, kind: 'mail.send', payload: { to: [user.email], subject, text }, dueAt: now, now, maxAttempts: 8 });
    return { user_id: user.id, email: user.email, expires_at: expiresAt.toISOString() };
  });
}

/** The bootstrap admin's first sign-in (serve prints the link once, decision 1602); `base`: where the service listens. */
export async function createBootstrapSignInLink(deps: Deps, tenantId: string, userId: string, base?: string): Promise<{ url: string; expires_at: string }> {
  const { token, expiresAt } = await deps.db.transaction((tx) => issueLink(tx, tenantId, userId, 'bootstrap', deps.clock.now(), BOOTSTRAP_LINK_TTL_MS));
  return { url: signInLinkUrl(deps.config, token, base), expires_at: expiresAt.toISOString() };
}

const used = () => new AppError(410, 'invitation_used', { key: 'identity.invitation_used' });
const expired = () => new AppError(410, 'invitation_expired', { key: 'identity.invitation_expired' });

/**
 * `POST /api/invitations/accept` (no credential): sets the password of the link's user and uses the link up. The link's
 * row is locked first, so two accepts of one link at once set the password once (the second meets `used_at`).
 */
export async function acceptInvitation(deps: Deps, input: { token: string; password: string }): Promise<{ user_id: string; email: string; tenant_id: string }> {
  // Hashed before the transaction: scrypt takes a while, and no lock is held meanwhile.
  const passwordHash = await hashPassword(input.password, deps.config.passwordHash);
  const now = deps.clock.now();
  const accepted = await deps.db.transaction(async (tx) => {
    const [link] = await tx.select().from(signInLinks).where(eq(signInLinks.tokenHash, sha256Hex(input.token))).for('update');
    if (!link) throw notFound('invitation link');
    if (link.usedAt) throw used();
    if (link.expiresAt.getTime() <= now.getTime()) throw expired();
    const user = await repo.findUser(tx, link.tenantId, link.userId);
    if (!user || user.deactivatedAt) throw notFound('invitation link');
    await tx.update(signInLinks).set({ usedAt: now }).where(and(eq(signInLinks.tenantId, link.tenantId), eq(signInLinks.id, link.id)));
    await repo.updateUser(tx, link.tenantId, user.id, { passwordHash });
    // A new password ends the user's earlier sign-ins, as setting one through PATCH /api/users/{id} does.
    await repo.revokeUserCredentials(tx, link.tenantId, user.id, now, ['access', 'refresh', 'session']);
    return { user_id: user.id, email: user.email, tenant_id: link.tenantId };
  });
  invalidateCredentialCache();
  return accepted;
}
