// Browser sessions (decision 0140): signing in to a cookie-held session credential, and signing it out.
import type { Deps } from '../../../deps.ts';
import { invalidateCredentialCache } from '../../../http/auth.ts';
import { newId } from '../../../shared/ids.ts';
import { sha256Hex } from '../../../shared/secrets.ts';
import { iso } from '../../../shared/time.ts';
import { toUserView, type UserView } from '../views.ts';
import * as repo from '../repository.ts';
import { issueCredential } from './create-tenant.ts';
import { issueDeviceToken } from './sign-in-throttle.ts';
import { signInWith, type SignInClient, type SignInInput } from './sign-in.ts';

/** Drivers stay signed in across app restarts for a month; there is no refresh: the next sign-in starts anew. */
export const SESSION_SECONDS = 30 * 24 * 3600;

export interface StartedSession {
  /** The `tbs_…` token: it goes only into the HttpOnly cookie, never into a body page JavaScript reads. */
  token: string;
  session: { expires_at: string };
  user: UserView;
  /** The browser's device cookie, renewed by every successful sign-in (decision 1621). */
  deviceToken: string;
}

/**
 * `POST /api/session`: the same password check and throttles as `POST /api/signin` (decision 0201); the credential
 * is a session, the first and only member of a new token family, so family revocation ends it like any sign-in.
 */
export async function startSession(deps: Deps, input: SignInInput, client: SignInClient): Promise<StartedSession> {
  return signInWith(deps, input, client, async (tx, user, at) => {
    const expiresAt = new Date(at.getTime() + SESSION_SECONDS * 1000);
    const { token } = await issueCredential(tx, user.tenantId, user.id, 'session', at, { expiresAt, familyId: newId() });
    const memberships = await repo.membershipsOf(tx, user.tenantId, [user.id]);
    return { token, session: { expires_at: iso(expiresAt) }, user: toUserView(user, memberships.get(user.id) ?? []), deviceToken: issueDeviceToken(user) };
  });
}

/**
 * `DELETE /api/session`: revokes the session's family and evicts this process's credential cache, so the cookie
 * fails on the next request even if a copy of it survives. No token, an unknown one or one already ended: nothing to
 * do — signing out is idempotent.
 */
export async function endSession(deps: Deps, token: string | null): Promise<void> {
  if (token === null || token.length > 512) return;
  const ended = await deps.db.transaction(async (tx) => {
    const row = await repo.findSessionCredential(tx, sha256Hex(token));
    if (!row || row.revokedAt) return false;
    await repo.revokeTokenFamily(tx, row.tenantId, row.familyId ?? row.id, deps.clock.now());
    return true;
  });
  if (ended) invalidateCredentialCache();
}
