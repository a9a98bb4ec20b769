// Signing in with e-mail and password, and refresh-token rotation.
import type { Deps } from '../../../deps.ts';
import type { Tx } from '../../../db/client.ts';
import { invalidateCredentialCache } from '../../../http/auth.ts';
import { unauthenticated, unprocessable } from '../../../http/errors.ts';
import type { Messages } from '../../../http/i18n.ts';
import { newId } from '../../../shared/ids.ts';
import { hashPassword, needsRehash, sha256Hex, verifyPassword, type ScryptParams } from '../../../shared/secrets.ts';
import { issueCredential } from './create-tenant.ts';
import { knownDevice, throttleSignIn } from './sign-in-throttle.ts';
import * as repo from '../repository.ts';

export const messages: Messages = {
  'identity.tenant_required': {
    en: 'This e-mail and password belong to users of several tenants: repeat the request with one of their tenant_id values.',
    de: 'E-Mail und Passwort gehören zu Benutzern mehrerer Mandanten: Wiederholen Sie die Anfrage mit einer ihrer tenant_id.',
  },
};

export const ACCESS_TOKEN_SECONDS = 3600;
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600;

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: 'bearer';
}

/** A sign-in starts a token family; every pair a refresh issues stays in it, so a detected reuse can end all of it. */
async function issueTokenPair(tx: Tx, tenantId: string, userId: string, at: Date, familyId: string): Promise<TokenPair> {
  const access = await issueCredential(tx, tenantId, userId, 'access', at, { expiresAt: new Date(at.getTime() + ACCESS_TOKEN_SECONDS * 1000), familyId });
  const refresh = await issueCredential(tx, tenantId, userId, 'refresh', at, { expiresAt: new Date(at.getTime() + REFRESH_TOKEN_SECONDS * 1000), familyId });
  return { access_token: access.token, refresh_token: refresh.token, expires_in: ACCESS_TOKEN_SECONDS, token_type: 'bearer' };
}

/** Compared against when no user has the e-mail, so an unknown e-mail costs the same time as a wrong password. */
const decoyHashes = new Map<string, Promise<string>>();
const decoyHash = (params: ScryptParams): Promise<string> => {
  const key = `${params.logN},${params.r},${params.p}`;
  if (!decoyHashes.has(key)) decoyHashes.set(key, hashPassword('decoy password that matches nothing', params));
  return decoyHashes.get(key)!;
};

/** Where a sign-in comes from: the client's address, and the device cookie its browser holds, if any (decision 1621). */
export interface SignInClient {
  address: string;
  deviceToken?: string | null;
}

export interface SignInInput {
  email: string;
  password: string;
  tenant_id?: string;
}

/**
 * Sign-in happens before a tenant is known. The password is checked against every active user with that e-mail;
 * exactly one match signs in; several matches (one person, several tenants) ask for `tenant_id` (decision 0201).
 * Wrong password and unknown e-mail get the same 401. `issue` makes the credential in the same transaction: a token
 * pair here, a browser session in browser-sessions.ts (decision 0140), behind one password check and one throttle.
 */
export async function signInWith<T>(
  deps: Deps,
  input: SignInInput,
  client: SignInClient,
  issue: (tx: Tx, user: repo.UserRow, at: Date) => Promise<T>,
): Promise<T> {
  // Without a device cookie the throttles come first, before even the lookup; with one, the lookup tells whether
  // it is the account's (decision 1621).
  const lookup = async () =>
    (await repo.findUserByEmail(deps.db, input.tenant_id ?? null, input.email)).flatMap((user) => (user.passwordHash ? [{ user, passwordHash: user.passwordHash }] : []));
  let candidates: Awaited<ReturnType<typeof lookup>> | null = null;
  let device: string | null = null;
  if (client.deviceToken) {
    candidates = await lookup();
    device = knownDevice(
      candidates.map((c) => c.user),
      client.deviceToken,
    );
  }
  const throttle = throttleSignIn(deps, input.email, client.address, device);
  candidates ??= await lookup();
  if (!candidates.length) {
    await verifyPassword(input.password, await decoyHash(deps.config.passwordHash));
    throttle.recordFailure();
    throw unauthenticated();
  }
  const matches: repo.UserRow[] = [];
  for (const { user, passwordHash } of candidates) if (await verifyPassword(input.password, passwordHash)) matches.push(user);
  const [user, ...others] = matches;
  if (!user) {
    throttle.recordFailure();
    throw unauthenticated();
  }
  if (others.length) {
    throw unprocessable('tenant_required', { key: 'identity.tenant_required' }, [{ pointer: '/user/tenant_id', code: 'required', detail: 'is required for this e-mail' }], {
      tenant_ids: matches.map((m) => m.tenantId).sort(),
    });
  }
  throttle.recordSuccess();
  const stored = candidates.find((c) => c.user === user)!.passwordHash;
  // Hashes made with older (or legacy, unstored) parameters are rewritten with the current ones while the password is at hand.
  const upgraded = needsRehash(stored, deps.config.passwordHash) ? await hashPassword(input.password, deps.config.passwordHash) : null;
  return deps.db.transaction(async (tx) => {
    if (upgraded) await repo.updateUser(tx, user.tenantId, user.id, { passwordHash: upgraded });
    return issue(tx, user, deps.clock.now());
  });
}

export const signIn = (deps: Deps, input: SignInInput, client: SignInClient): Promise<TokenPair> =>
  signInWith(deps, input, client, (tx, user, at) => issueTokenPair(tx, user.tenantId, user.id, at, newId()));

/**
 * Rotation: the presented refresh token is revoked and a new pair issued; an expired or unknown one is 401. A
 * revoked one presented again means it was copied (RFC 9700 §4.14.2): every token of its family, the newest
 * refresh and access tokens included, is revoked before answering 401.
 */
export async function refreshTokens(deps: Deps, refreshToken: string): Promise<TokenPair> {
  const now = deps.clock.now();
  const outcome = await deps.db.transaction(async (tx): Promise<TokenPair | 'unauthenticated' | 'reused'> => {
    const row = await repo.findRefreshTokenForUpdate(tx, sha256Hex(refreshToken));
    if (!row || (row.expiresAt && row.expiresAt <= now)) return 'unauthenticated';
    const familyId = row.familyId ?? row.id;
    if (row.revokedAt) {
      await repo.revokeTokenFamily(tx, row.tenantId, familyId, now);
      return 'reused';
    }
    const user = await repo.findUser(tx, row.tenantId, row.userId);
    if (!user || user.deactivatedAt) return 'unauthenticated';
    await repo.revokeCredential(tx, row.tenantId, row.id, now);
    return issueTokenPair(tx, row.tenantId, row.userId, now, familyId);
  });
  if (outcome === 'reused') invalidateCredentialCache();
  if (typeof outcome === 'string') throw unauthenticated();
  return outcome;
}
