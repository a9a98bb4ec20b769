// Stream tickets: POST /api/live/tickets makes a single-use ticket worth 60 s; GET /api/live?ticket=… redeems it.
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { forbidden, unauthenticated } from '../../../http/errors.ts';
import { pickLang } from '../../../http/i18n.ts';
import { findActiveCredential } from '../../identity/index.ts';
import { newId } from '../../../shared/ids.ts';
import { randomBase62, sha256Hex } from '../../../shared/secrets.ts';
import { iso } from '../../../shared/time.ts';
import { mayOnLive } from '../permissions.ts';
import * as repo from '../repository.ts';

export const TICKET_TTL_MS = 60_000;
/** `lt_` + tenant id + ticket id (hex, 32 each) + secret: the tenant and row are found without a scan. */
const TICKET_RE = /^lt_([0-9a-f]{32})([0-9a-f]{32})([A-Za-z0-9]{32})$/;

const hex = (uuid: string): string => uuid.replace(/-/g, '');
const uuidOf = (h: string): string => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;

/** `credentialHash` is the SHA-256 of the token the caller authenticated with: the ticket stands for that credential. */
export async function createLiveTicket(deps: Deps, actor: Actor, credentialHash: string) {
  if (!mayOnLive(actor, 'create_ticket')) throw forbidden();
  const now = deps.clock.now();
  const id = newId();
  const secret = randomBase62(32);
  const expiresAt = new Date(now.getTime() + TICKET_TTL_MS);
  await repo.insertTicket(deps.db, { tenantId: actor.tenantId, id, secretHash: sha256Hex(secret), credentialHash, expiresAt, createdAt: now });
  const token = `lt_${hex(actor.tenantId)}${hex(id)}${secret}`;
  return { ticket: { token, expires_at: iso(expiresAt), url: `/api/live?ticket=${token}` } };
}

/** The actor a ticket stands for, spending the ticket; 401 for an unknown, used, expired or forged ticket. */
export async function redeemLiveTicket(deps: Deps, ticket: string, acceptLanguage: string | undefined): Promise<{ actor: Actor; credentialHash: string }> {
  const match = TICKET_RE.exec(ticket);
  if (!match) throw unauthenticated();
  const [, tenantHex = '', idHex = '', secret = ''] = match;
  const credentialHash = await repo.redeemTicket(deps.db, uuidOf(tenantHex), uuidOf(idHex), sha256Hex(secret), deps.clock.now());
  if (!credentialHash) throw unauthenticated();
  const found = await findActiveCredential(deps.db, credentialHash);
  if (!found || found.tenantId !== uuidOf(tenantHex) || (found.expiresAt !== null && found.expiresAt <= deps.clock.now().getTime())) throw unauthenticated();
  const { expiresAt: _expiresAt, ...actor } = found;
  return { actor: { ...actor, lang: pickLang(acceptLanguage) }, credentialHash };
}
