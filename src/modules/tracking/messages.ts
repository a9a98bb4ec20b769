// A booking's recipient messages (contract §18, decision 1761) and what the SMS gateway tells of them: receipts that
// move a message's state on (Kannel's by our id, Twilio's and SMPP's by theirs), and replies whose STOP opts the number
// out (decision 1764).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { badParameter, forbidden, notFound, unauthenticated } from '../../http/errors.ts';
import { phoneNumberToE164 } from '../../shared/contact.ts';
import { twilioSignatureValid, type SmsProvider } from '../../sms/index.ts';
import { requireBooking } from '../dispatch/index.ts';
import * as repo from './messages-repository.ts';
import { isStopReply, kannelReceiptStatus, STATUS_RANK } from './recipient-sms.ts';
import type { MessageStatus } from './tables.ts';

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
 * a missing or wrong one is 401. Compared in constant time. `provider`: the routes only that provider calls (the SMPP
 * bridge's) are not there (404) while another is configured.
 */
export function checkCallbackSecret(config: Deps['config'], given: string | undefined, provider?: SmsProvider): void {
  const secret = config.sms?.callbackSecret;
  if (!secret || (provider && config.sms?.provider !== provider)) throw notFound('SMS callback');
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

/**
 * Twilio's MessageStatus → ours (decision 1782). Twilio's own queue states leave a message where it is (it is `sent`
 * once Twilio took it); `read` (WhatsApp, RCS) is delivered as well.
 */
const TWILIO_STATUSES: Record<string, MessageStatus> = {
  accepted: 'queued',
  scheduled: 'queued',
  queued: 'queued',
  sending: 'queued',
  sent: 'sent',
  delivered: 'delivered',
  read: 'delivered',
  undelivered: 'failed',
  failed: 'failed',
  canceled: 'failed',
};

/** A Twilio status callback: the message found by its SID, moved forward; a failed one keeps Twilio's error code. */
export async function receiveTwilioStatus(deps: Deps, body: { MessageSid: string; MessageStatus: string; ErrorCode?: string }): Promise<void> {
  const status = TWILIO_STATUSES[body.MessageStatus.toLowerCase()];
  if (!status) throw badParameter('parameter_invalid', 'MessageStatus', `is not a Twilio message status (${Object.keys(TWILIO_STATUSES).join(', ')})`);
  const error = status === 'failed' ? `Not delivered (${body.MessageStatus}): ${body.ErrorCode ? `Twilio error ${body.ErrorCode}` : 'the carrier could not deliver it'}` : null;
  if (!(await repo.applyReceiptByProviderRef(deps.db, body.MessageSid, status, STATUS_RANK[status], error, deps.clock.now()))) throw notFound('message');
}

/** SMPP's receipt `stat:` words (SMPP 3.4 appendix B; message_state named alike) → ours (decision 1783). */
const SMPP_STATES: Record<string, MessageStatus> = {
  SCHEDULED: 'sent',
  ENROUTE: 'sent',
  ACCEPTD: 'sent',
  DELIVRD: 'delivered',
  EXPIRED: 'failed',
  DELETED: 'failed',
  UNDELIV: 'failed',
  REJECTD: 'failed',
  UNKNOWN: 'failed',
  SKIPPED: 'failed',
};

/** An SMSC's receipt, through the SMPP bridge: found by the SMSC's message_id, moved forward; a failed one keeps the words. */
export async function receiveSmppStatus(deps: Deps, body: { message_id: string; stat: string; err?: string | null }): Promise<void> {
  const stat = body.stat.toUpperCase();
  const status = SMPP_STATES[stat];
  if (!status) throw badParameter('parameter_invalid', 'stat', `is not an SMPP receipt state (${Object.keys(SMPP_STATES).join(', ')})`);
  const error = status === 'failed' ? `Not delivered: ${stat}${body.err && !/^0+$/.test(body.err) ? ` (error ${body.err})` : ''}` : null;
  if (!(await repo.applyReceiptByProviderRef(deps.db, body.message_id, status, STATUS_RANK[status], error, deps.clock.now()))) throw notFound('message');
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
 * A reply to our SMS, through any gateway. A stop word opts the number out for the tenant that last texted it — a reply
 * names no tenant (decision 1764); anything else is not ours to answer. Answers whether the number opted out.
 */
export async function receiveSmsReply(deps: Deps, query: { from: string; text: string }): Promise<boolean> {
  if (!isStopReply(query.text)) return false;
  const number = senderNumber(query.from);
  if (!number) return false;
  const tenantId = await repo.lastSenderOf(deps.db, number);
  if (!tenantId) return false;
  await repo.optOutPhone(deps.db, tenantId, number, deps.clock.now());
  deps.log.info({ tenant_id: tenantId }, 'an SMS recipient replied STOP: opted out');
  return true;
}

/**
 * Twilio's callbacks are signed (X-Twilio-Signature) with the Auth Token over the URL it called — PUBLIC_URL and the
 * path — and the POST parameters (decision 1782). Missing or wrong: 403, before the body is read for anything else;
 * Twilio not configured: 404, as for the other providers' callbacks when they are not.
 */
export function checkTwilioSignature(config: Deps['config'], pathAndQuery: string, params: readonly (readonly [string, string])[], given: string | undefined): void {
  if (config.sms?.provider !== 'twilio' || !config.sms.password) throw notFound('SMS callback');
  const url = `${(config.publicUrl ?? `http://${config.host}:${config.port}`).replace(/\/+$/, '')}${pathAndQuery}`;
  if (!twilioSignatureValid(config.sms.password, url, params, given)) throw forbidden('The request does not carry a valid X-Twilio-Signature.');
}
