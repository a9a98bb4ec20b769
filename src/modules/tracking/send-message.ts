// The tracking.send_message job (decisions 1761, 1763): hands one recipient message — an e-mail to the mailer, an SMS
// to the gateway — and records what became of it. A refusal or a timeout is retried with the jobs' backoff; after the
// last attempt the message is failed with the gateway's reason.
import type { Deps } from '../../deps.ts';
import { mailerFor } from '../../mail/index.ts';
import { smsGatewayFor } from '../../sms/index.ts';
import { scheduleJob } from '../../worker/jobs.ts';
import type { JobKind } from '../../worker/job-kinds.ts';
import type { JobHandler } from '../../worker/registry.ts';
import { findServiceArea } from '../identity/index.ts';
import * as repo from './messages-repository.ts';
import { quietHoursEnd } from './quiet-hours.ts';
import { NOT_SENT } from './recipient-sms.ts';
import { sendingIdentity } from './sender.ts';

export const SEND_MESSAGE_JOB: JobKind = 'tracking.send_message';
/** Attempts before a message is failed: 5 s, 20 s, 80 s, 320 s, 21 min, 1 h apart (the jobs' backoff) — about 1.5 h. */
export const SEND_MESSAGE_ATTEMPTS = 7;
/**
 * How long a send job holds its message: longer than the gateway's timeout and the job's lease, so a job taken again
 * while the first still talks to the gateway finds it held (and tries later) rather than sending it twice.
 */
const HOLD_MS = 120_000;

export interface SendMessagePayload {
  message_id: string;
  /** E-mail only. */
  subject?: string;
  text: string;
  headers?: Record<string, string>;
  /** SMS only: where the gateway reports delivery. */
  status_url?: string | null;
  /** SMS only: the drop-off's service area, whose quiet hours the SMS waits out (decision 1772). */
  service_area_id?: string;
}

export const sendRecipientMessageJob: JobHandler = async (deps, job) => {
  const payload = job.payload as unknown as SendMessagePayload;
  const now = deps.clock.now();
  if (await waitsOutQuietHours(deps, job.tenantId, payload, now)) return;
  const message = await repo.claimMessage(deps.db, job.tenantId, payload.message_id, now, new Date(now.getTime() + HOLD_MS));
  if (message === 'done') return; // sent or failed already
  // Another run of this job holds it (its lease ran out mid-send): when that one fails, this one's retry sends.
  if (message === 'held') throw new Error('the message is being sent by another job');
  const key = { tenantId: job.tenantId, id: message.id };
  const reason = await send(deps, message, payload);
  if ('sent' in reason) {
    // The gateway's own id (Twilio's SID, an SMSC's message_id): its receipts name the message by it (decisions 1782, 1783).
    await repo.finishSending(deps.db, key, { status: 'sent', providerRef: reason.providerRef }, deps.clock.now());
    return;
  }
  if (job.attempt >= job.maxAttempts || reason.final) {
    await repo.finishSending(deps.db, key, { status: 'failed', error: reason.text }, deps.clock.now());
    return;
  }
  await repo.finishSending(deps.db, key, { status: 'queued', error: reason.text }, deps.clock.now());
  throw new Error(reason.text); // the job's backoff decides when it runs again
};

/**
 * An SMS due inside its area's quiet hours is not sent: its job is scheduled again for the instant they end, on the
 * area's clock as it is set then (decision 1772). Read when the job runs, so a change of the hours applies to SMS
 * already waiting. The dedupe key keeps one waiting job per message however often this runs; the claim sends it once.
 */
async function waitsOutQuietHours(deps: Deps, tenantId: string, payload: SendMessagePayload, now: Date): Promise<boolean> {
  if (!payload.service_area_id) return false;
  const area = await findServiceArea(deps.db, tenantId, payload.service_area_id);
  const end = area ? quietHoursEnd(now, area.smsQuietHours, area.timeZone) : null;
  if (!end) return false;
  await scheduleJob(deps.db, { tenantId, kind: SEND_MESSAGE_JOB, payload: { ...payload }, dueAt: end, now, dedupeKey: `quiet-hours:${payload.message_id}`, maxAttempts: SEND_MESSAGE_ATTEMPTS });
  deps.log.info({ message_id: payload.message_id, until: end.toISOString() }, 'SMS waits out the quiet hours');
  return true;
}

type Reason = { text: string; final: boolean };
type Sent = { sent: true; providerRef: string | null };

/** Sent (with the gateway's id of it, if it gives one) when the mailer or the gateway took the message, else why not. */
async function send(deps: Deps, message: repo.MessageRow, payload: SendMessagePayload): Promise<Reason | Sent> {
  // The tenant's sender identity as it is now (decision 1784): a change applies to messages still waiting.
  const sender = await sendingIdentity(deps, message.tenantId);
  if (message.channel === 'email') {
    try {
      // The message id as Message-ID lets a receiving server drop a retry's duplicate.
      await mailerFor(deps.config, deps.log).send({
        id: message.id,
        to: [message.to],
        subject: payload.subject ?? '',
        text: payload.text,
        from: sender.mailFrom,
        ...(sender.replyTo ? { replyTo: sender.replyTo } : {}),
        ...(payload.headers ? { headers: payload.headers } : {}),
      });
      return { sent: true, providerRef: null };
    } catch (err) {
      return { text: `The mail server refused it: ${err instanceof Error ? err.message : String(err)}`, final: false };
    }
  }
  // A reply STOP may have come while the message waited (decision 1764).
  if ((await repo.optedOutPhones(deps.db, message.tenantId, [message.to])).size) return { text: NOT_SENT.optedOut, final: true };
  const gateway = smsGatewayFor(deps.config);
  if (!gateway) return { text: NOT_SENT.noGateway, final: true };
  const result = await gateway.send({ id: message.id, tenantId: message.tenantId, to: message.to, from: sender.smsFrom ?? deps.config.sms!.from, text: payload.text, statusUrl: payload.status_url ?? null });
  if (result.accepted) return { sent: true, providerRef: result.providerRef };
  deps.log.warn({ message_id: message.id, reason: result.reason }, 'SMS refused by the gateway');
  return { text: result.reason, final: false };
}
