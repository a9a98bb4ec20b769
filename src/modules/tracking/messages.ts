// A booking's recipient messages (contract §18, decision 1761) and what the SMS gateway tells of them: receipts that
// move a message's state on, and replies whose STOP opts the number out (decision 1764).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { badParameter, notFound, unauthenticated } from '../../http/errors.ts';
import { phoneNumberToE164 } from '../../shared/contact.ts';
import { requireBooking } from '../dispatch/index.ts';
import * as repo from './messages-repository.ts';
import { isStopReply, kannelReceiptStatus, STATUS_RANK } from './recipient-sms.ts';

const toView = (row: repo.MessageRow) => ({
  id: row.id,
  channel: row.channel,
  to: row.to,
  moment: row.moment,
  status: row.status,
  error: row.error,
  created_at: row.createdAt.toISOString(),
});

/** Every e-mail and SMS told about the booking, oldest first: for whoever sees the booking and its link (never drivers). */
export async function listBookingMessages(deps: Deps, actor: Actor, bookingId: string) {
  await requireBooking(deps.db, actor, bookingId, { action: 'tracking_link' });
  return (await repo.messagesOfBooking(deps.db, actor.tenantId, bookingId)).map(toView);
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * The gateway's callbacks carry SMS_CALLBACK_SECRET in the URL: without one configured there are no callbacks (404),
 * a missing or wrong one is 401. Compared in constant time.
 */
export function checkCallbackSecret(config: Deps['config'], given: string | undefined): void {
  const secret = config.sms?.callbackSecret;
  if (!secret) throw notFound('SMS callback');
  if (!given || !timingSafeEqual(digest(given), digest(secret))) throw unauthenticated();
}

/** A Kannel receipt: the message's state, forward only; the carrier's answer is the error of a failed one. */
export async function receiveKannelStatus(deps: Deps, query: { tenant: string; message: string; type: number; answer?: string }): Promise<void> {
  const status = kannelReceiptStatus(query.type);
  if (!status) throw badParameter('parameter_invalid', 'type', 'is not a Kannel DLR type (1, 2, 4, 8 or 16)');
  const answer = query.answer?.trim() ?? '';
  const error = status === 'failed' ? `Not delivered: ${answer || (query.type === 16 ? 'the SMSC refused it' : 'the carrier could not deliver it')}` : null;
  const found = await repo.applyReceipt(deps.db, { tenantId: query.tenant, id: query.message }, status, STATUS_RANK[status], error, deps.clock.now());
  if (!found) throw notFound('message');
}

/** The sender of an inbound SMS in E.164 (Kannel gives it with or without the "+"), or null when it is no number. */
function senderNumber(from: string): string | null {
  const trimmed = from.trim();
  for (const candidate of [trimmed, `+${trimmed.replace(/^\+/, '')}`]) {
    const reading = phoneNumberToE164(candidate, null);
    if (reading.ok) return reading.e164;
  }
  return null;
}

/**
 * A reply to our SMS. A stop word opts the number out for the tenant that last texted it — a reply names no tenant
 * (decision 1764); anything else is not ours to answer. Answers whether the number opted out.
 */
export async function receiveKannelInbound(deps: Deps, query: { from: string; text: string }): Promise<boolean> {
  if (!isStopReply(query.text)) return false;
  const number = senderNumber(query.from);
  if (!number) return false;
  const tenantId = await repo.lastSenderOf(deps.db, number);
  if (!tenantId) return false;
  await repo.optOutPhone(deps.db, tenantId, number, deps.clock.now());
  deps.log.info({ tenant_id: tenantId }, 'an SMS recipient replied STOP: opted out');
  return true;
}
