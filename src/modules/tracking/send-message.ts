// The tracking.send_message job (decisions 1761, 1763): hands one recipient message — an e-mail to the mailer, an SMS
// to the gateway — and records what became of it. A refusal or a timeout is retried with the jobs' backoff; after the
// last attempt the message is failed with the gateway's reason. Send jobs run side by side (decision 1785): the claim
// keeps each message sent once, and the reads a batch shares (area, sender) are made once per batch.
import type { Deps } from '../../deps.ts';
import { mailerFor } from '../../mail/index.ts';
import { smsGatewayFor } from '../../sms/index.ts';
import { scheduleJob } from '../../worker/jobs.ts';
import type { JobKind } from '../../worker/job-kinds.ts';
import type { JobContext, JobHandler } from '../../worker/registry.ts';
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
/** E-mails handed to the SMTP server at once per process: each is a connection of its own (mail/mailer.ts). */
const MAILS_IN_FLIGHT = 4;

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

type Once = NonNullable<JobContext['once']>;
const alone: Once = (_key, read) => read();

export const sendRecipientMessageJob: JobHandler = async (deps, job) => {
  const payload = job.payload as unknown as SendMessagePayload;
  const once = job.once ?? alone;
  const now = deps.clock.now();
  if (await waitsOutQuietHours(deps, once, job.tenantId, payload, now)) return;
  const message = await repo.claimMessage(deps.db, job.tenantId, payload.message_id, now, new Date(now.getTime() + HOLD_MS));
  if (message === 'done') return; // sent or failed already
  // Another run of this job holds it (its lease ran out mid-send): when that one fails, this one's retry sends.
  if (message === 'held') throw new Error('the message is being sent by another job');
  const key = { tenantId: job.tenantId, id: message.id };
  const reason = await send(deps, once, message, payload);
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
 * area's clock as it is set then (decision 1772). Read when the job's batch runs, so a change of the hours applies to
 * SMS already waiting. The dedupe key keeps one waiting job per message however often this runs; the claim sends it once.
 */
async function waitsOutQuietHours(deps: Deps, once: Once, tenantId: string, payload: SendMessagePayload, now: Date): Promise<boolean> {
  const areaId = payload.service_area_id;
  if (!areaId) return false;
  const area = await once(`service-area:${tenantId}:${areaId}`, () => findServiceArea(deps.db, tenantId, areaId));
  const end = area ? quietHoursEnd(now, area.smsQuietHours, area.timeZone) : null;
  if (!end) return false;
  await scheduleJob(deps.db, { tenantId, kind: SEND_MESSAGE_JOB, payload: { ...payload }, dueAt: end, now, dedupeKey: `quiet-hours:${payload.message_id}`, maxAttempts: SEND_MESSAGE_ATTEMPTS });
  deps.log.info({ message_id: payload.message_id, until: end.toISOString() }, 'SMS waits out the quiet hours');
  return true;
}

/** A slot among MAILS_IN_FLIGHT: resolves when this e-mail may go, answers the release. */
let mailsInFlight = 0;
const mailQueue: (() => void)[] = [];
async function mailSlot(): Promise<() => void> {
  if (mailsInFlight >= MAILS_IN_FLIGHT) await new Promise<void>((resolve) => mailQueue.push(resolve));
  else mailsInFlight += 1;
  // A release hands the slot straight to the next waiting e-mail, if any.
  return () => {
    const next = mailQueue.shift();
    if (next) next();
    else mailsInFlight -= 1;
  };
}

type Reason = { text: string; final: boolean };
type Sent = { sent: true; providerRef: string | null };

/** Sent (with the gateway's id of it, if it gives one) when the mailer or the gateway took the message, else why not. */
async function send(deps: Deps, once: Once, message: repo.ClaimedMessage, payload: SendMessagePayload): Promise<Reason | Sent> {
  // The tenant's sender identity as it is when the batch runs (decision 1784): a change applies to messages still waiting.
  const sender = await once(`sender:${message.tenantId}`, () => sendingIdentity(deps, message.tenantId));
  if (message.channel === 'email') {
    const release = await mailSlot();
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
    } finally {
      release();
    }
  }
  // A reply STOP may have come while the message waited (decision 1764): the claim looked.
  if (message.optedOut) return { text: NOT_SENT.optedOut, final: true };
  const gateway = smsGatewayFor(deps.config);
  if (!gateway) return { text: NOT_SENT.noGateway, final: true };
  const result = await gateway.send({ id: message.id, tenantId: message.tenantId, to: message.to, from: sender.smsFrom ?? deps.config.sms!.from, text: payload.text, statusUrl: payload.status_url ?? null });
  if (result.accepted) return { sent: true, providerRef: result.providerRef };
  deps.log.warn({ message_id: message.id, reason: result.reason }, 'SMS refused by the gateway');
  return { text: result.reason, final: false };
}
