// Sign-in throttling (decision 1621): progressive delays per account and source, and device cookies (OWASP's
// "Slow down online guessing attacks with device cookies"), so a stranger's failures slow the stranger, not the owner.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Deps } from '../../../deps.ts';
import { AppError } from '../../../http/errors.ts';
import type { Messages } from '../../../http/i18n.ts';
import { authFailuresByAddress } from '../../../http/rate-limit.ts';
import type { UserRow } from '../repository.ts';

export const messages: Messages = {
  'identity.sign_in_throttled': {
    en: 'Too many failed sign-ins for this e-mail from here; retry after {seconds} s.',
    de: 'Zu viele fehlgeschlagene Anmeldungen für diese E-Mail von hier; erneut versuchen in {seconds} s.',
  },
};

/** A browser keeps its device cookie half a year; every successful sign-in renews it. */
export const DEVICE_COOKIE_SECONDS = 180 * 24 * 3600;

/**
 * Failures allowed without a wait, then a wait that doubles with each further failure up to `maxSeconds`; a key quiet
 * for a day is forgotten. Waits, not a lock: the next attempt after the wait is heard (OWASP, "progressive delays").
 */
export interface ProgressiveLimit {
  free: number;
  maxSeconds: number;
}

/** From one source against one account: the attacker's own pace. 5 free, then 1, 2, 4 … s, at most 15 min. */
export const PER_ACCOUNT_AND_SOURCE: ProgressiveLimit = { free: 5, maxSeconds: 900 };
/** Against one account from every source without its device cookie: a guesser spread over many addresses. */
export const PER_ACCOUNT: ProgressiveLimit = { free: 100, maxSeconds: 900 };
/** From one browser that has signed in to the account before: its own budget, untouched by anyone else's failures. */
export const PER_DEVICE: ProgressiveLimit = { free: 10, maxSeconds: 900 };
const FORGET_MS = 24 * 3600 * 1000;

interface Failures {
  count: number;
  lastMs: number;
}

export const waitSeconds = (limit: ProgressiveLimit, count: number): number =>
  count < limit.free ? 0 : Math.min(limit.maxSeconds, 2 ** (count - limit.free));

/** In-process like the other throttles (decision 0102), in an LRU so spraying keys cannot wipe every wait at once. */
function progressiveThrottle(limit: ProgressiveLimit, max = 100_000) {
  const entries = new LRUCache<string, Failures>({ max });
  const current = (key: string, nowMs: number): Failures => {
    const found = entries.get(key);
    return found && nowMs - found.lastMs < FORGET_MS ? found : { count: 0, lastMs: nowMs };
  };
  return {
    /** Seconds until `key` may try again (0: now). */
    wait(key: string, nowMs: number): number {
      const failures = current(key, nowMs);
      const until = failures.lastMs + waitSeconds(limit, failures.count) * 1000;
      return Math.max(0, Math.ceil((until - nowMs) / 1000));
    },
    fail(key: string, nowMs: number): void {
      entries.set(key, { count: current(key, nowMs).count + 1, lastMs: nowMs });
    },
    forget(key: string): void {
      entries.delete(key);
    },
  };
}

const byAccountAndSource = progressiveThrottle(PER_ACCOUNT_AND_SOURCE);
const byAccount = progressiveThrottle(PER_ACCOUNT);
const byDevice = progressiveThrottle(PER_DEVICE);

const throttled = (seconds: number): AppError =>
  new AppError(429, 'rate_limited', { key: 'identity.sign_in_throttled', params: { seconds } }, [], {}, { 'retry-after': String(seconds) });

// ── Device cookies ──────────────────────────────────────────────────────────────────────────────────────────────
// `<user id>.<nonce>.<MAC>`: the MAC is keyed by the user's password hash, a secret only the database holds, so every
// replica verifies it without a table and a new password retires the user's device cookies with the old sessions.

const macOf = (user: Pick<UserRow, 'id' | 'tenantId' | 'passwordHash'>, nonce: string): string =>
  createHmac('sha256', createHash('sha256').update(`tourbook-device\n${user.passwordHash ?? ''}`).digest())
    .update(`${user.tenantId}\n${user.id}\n${nonce}`)
    .digest('base64url');

/** A new device cookie value for a user who just signed in with the password. */
export function issueDeviceToken(user: Pick<UserRow, 'id' | 'tenantId' | 'passwordHash'>): string {
  const nonce = randomBytes(18).toString('base64url');
  return `${user.id}.${nonce}.${macOf(user, nonce)}`;
}

/** The device's nonce when `token` is a device cookie of one of `candidates` (the users with the e-mail), else null. */
export function knownDevice(candidates: readonly Pick<UserRow, 'id' | 'tenantId' | 'passwordHash'>[], token: string | null | undefined): string | null {
  if (!token || token.length > 200) return null;
  const [userId, nonce, mac, ...rest] = token.split('.');
  if (!userId || !nonce || !mac || rest.length) return null;
  const user = candidates.find((c) => c.id === userId && c.passwordHash);
  if (!user) return null;
  const expected = Buffer.from(macOf(user, nonce));
  const given = Buffer.from(mac);
  return expected.length === given.length && timingSafeEqual(expected, given) ? nonce : null;
}

export interface SignInThrottle {
  recordFailure(): void;
  recordSuccess(): void;
}

/**
 * A browser with the account's device cookie answers to its own budget only: neither the address's failed
 * authentications (decision 0113: 60, shared by everyone behind a NAT) nor failures against the account elsewhere
 * slow it. Everyone else meets three: the address's, the account's from this address, and the account's from every
 * address without its cookie. Checked before the password is hashed (a scrypt hash is the expensive part).
 */
export function throttleSignIn(deps: Deps, email: string, address: string, device: string | null): SignInThrottle {
  const nowMs = deps.clock.now().getTime();
  if (device !== null) {
    const key = `device:${device}`;
    const wait = byDevice.wait(key, nowMs);
    if (wait > 0) throw throttled(wait);
    return { recordFailure: () => byDevice.fail(key, nowMs), recordSuccess: () => byDevice.forget(key) };
  }
  const account = email.toLowerCase();
  const pair = `${account}\n${address}`;
  const byAddress = authFailuresByAddress(deps).check(address, nowMs, 'error.auth_failures');
  const wait = Math.max(byAccountAndSource.wait(pair, nowMs), byAccount.wait(account, nowMs));
  if (wait > 0) throw throttled(wait);
  return {
    recordFailure: () => {
      byAddress.recordFailure();
      byAccountAndSource.fail(pair, nowMs);
      byAccount.fail(account, nowMs);
    },
    // The owner got in from here: this source's count against the account starts again.
    recordSuccess: () => byAccountAndSource.forget(pair),
  };
}
