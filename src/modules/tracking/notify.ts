// Recipient notifications (decisions 1104, 1108, 1109): a periodic sweep finds drop-offs at a moment worth telling —
// on a tour, the driver heading there, close by, delivered, failed — and tells each moment once: an e-mail (the
// tenant's template or Tourbook's, en/de, tracking link, RFC 8058 one-click unsubscribe) and an SMS where the contact has
// a phone number (decision 1762), each a recipient message with its send job (decision 1761), and
// `booking.recipient_notification_due` for integrators' other channels.
import { createHash, createHmac } from 'node:crypto';
import type { Deps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { masterKeyRingFor } from '../../crypto/master-key.ts';
import { recordEvent } from '../../events/outbox.ts';
import { addressProblem, type AddressProblem } from '../../mail/index.ts';
import { phoneNumberToE164 } from '../../shared/contact.ts';
import { newId, NIL_UUID } from '../../shared/ids.ts';
import { ensureJob, scheduleJob } from '../../worker/jobs.ts';
import type { JobKind } from '../../worker/job-kinds.ts';
import type { JobHandler } from '../../worker/registry.ts';
import { bookingEventDataOf, recipientStopsAtAMoment, trackingLinksOf, type RecipientStop } from '../dispatch/index.ts';
import { serviceAreasNotifyingRecipients } from '../identity/index.ts';
import { DEFAULT_TEMPLATES, momentToTell, recipientMailText, recipientMessage, unsubscribeHeaders, type RecipientTemplate } from './recipient-mail.ts';
import * as messages from './messages-repository.ts';
import * as repo from './recipient-repository.ts';
import { NOT_SENT, recipientSmsText } from './recipient-sms.ts';
import { SEND_MESSAGE_ATTEMPTS, SEND_MESSAGE_JOB, type SendMessagePayload } from './send-message.ts';
import type { RecipientLocale, RecipientMoment } from './tables.ts';

/** Why a recipient e-mail was not sent (the event's `email_not_sent`; the console says it in words, decision 1622). */
export type EmailNotSent = AddressProblem | 'unsubscribed' | 'no_tracking_link';

export const NOTIFY_RECIPIENTS_JOB: JobKind = 'tracking.notify_recipients';
/** How often the sweep looks: a moment reaches the recipient at most this late (plus the mail job's pick-up). */
export const NOTIFY_INTERVAL_SECONDS = 30;
/** How far back a finished stop still counts as news: covers a worker that was down, never a stop of last week. */
export const NOTIFY_LOOKBACK_SECONDS = 3600;

const sweep = { tenantId: NIL_UUID, kind: NOTIFY_RECIPIENTS_JOB, dedupeKey: 'notify-recipients', payload: {} };

export async function ensureRecipientNotifications(deps: Deps): Promise<void> {
  const now = deps.clock.now();
  await ensureJob(deps.db, { ...sweep, dueAt: now, now });
}

export const notifyRecipientsJob: JobHandler = async (deps) => {
  // Scheduled first: a sweep that fails still leaves the next one in place.
  const now = deps.clock.now();
  await scheduleJob(deps.db, { ...sweep, dueAt: new Date(now.getTime() + NOTIFY_INTERVAL_SECONDS * 1000), now });
  await notifyRecipients(deps);
};

const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');
/** Where recipients reach the service (`PUBLIC_URL`, else the listening address). */
export const baseUrl = (config: Deps['config']): string => (config.publicUrl ?? `http://${config.host}:${config.port}`).replace(/\/+$/, '');
export const unsubscribeUrl = (config: Deps['config'], token: string): string => `${baseUrl(config)}/unsubscribe/${token}`;

/** One sweep: every due moment of every tenant, each tenant in its own transaction. Answers how many were told. */
export async function notifyRecipients(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  // Only the areas that chose some moment are looked at (decision 1104); only those that chose `dispatched` or
  // `approaching` cost a look at their other open drop-offs (decision 1108).
  const areas = new Map((await serviceAreasNotifyingRecipients(deps.db)).map((a) => [a.id, a]));
  const stops = await recipientStopsAtAMoment(
    deps.db,
    [...areas.values()].map((a) => ({
      tenantId: a.tenantId,
      id: a.id,
      openStops: a.recipientNotifications.includes('dispatched'),
      enRouteStops: a.recipientNotifications.includes('approaching'),
    })),
    new Date(now.getTime() - NOTIFY_LOOKBACK_SECONDS * 1000),
  );
  const [told, etas] = await Promise.all([repo.toldMoments(deps.db, stops), liveEtas(deps, stops)]);
  const due = new Map<string, DueMoment[]>();
  for (const stop of stops) {
    const area = areas.get(stop.serviceAreaId);
    if (!area) continue;
    const eta = etas.get(stop.stopId) ?? stop.eta;
    const moment = momentToTell(
      { ...stop, eta },
      { moments: area.recipientNotifications, approachingMinutes: area.recipientApproachingMinutes },
      told.get(stop.stopId) ?? new Set(),
      now,
    );
    if (!moment) continue;
    (due.get(stop.tenantId) ?? due.set(stop.tenantId, []).get(stop.tenantId))?.push({ stop: { ...stop, eta }, moment, timeZone: area.timeZone });
  }
  let count = 0;
  for (const [tenantId, items] of due) {
    count += await deps.db.transaction(async (tx) => {
      const templates = await tenantTemplates(tx, tenantId);
      let n = 0;
      for (const item of items) if (await tell(tx, deps, tenantId, item, templates, now)) n += 1;
      return n;
    });
  }
  return count;
}

interface DueMoment {
  stop: RecipientStop;
  moment: RecipientMoment;
  timeZone: string;
}

/** The ETAs live tracking keeps for the open drop-offs of en-route tours (the ones still on that tour). */
async function liveEtas(deps: Deps, stops: readonly RecipientStop[]): Promise<Map<string, Date>> {
  const byTenant = new Map<string, RecipientStop[]>();
  for (const s of stops) if (s.status === 'open' && s.enRoute) (byTenant.get(s.tenantId) ?? byTenant.set(s.tenantId, []).get(s.tenantId))?.push(s);
  const etas = new Map<string, Date>();
  for (const [tenantId, open] of byTenant) {
    const known = await deps.hooks.dispatch.stopEtas(deps.db, tenantId, open.map((s) => s.stopId));
    for (const s of open) {
      const eta = known.get(s.stopId);
      if (eta && eta.tourId === s.tourId) etas.set(s.stopId, eta.eta);
    }
  }
  return etas;
}

/** The template a moment is written with: the tenant's own for that language, else Tourbook's (decision 1109). */
export type TemplateOf = (moment: RecipientMoment, locale: RecipientLocale) => RecipientTemplate;

export async function tenantTemplates(q: Parameters<typeof repo.templatesOf>[0], tenantId: string): Promise<TemplateOf> {
  const own = new Map((await repo.templatesOf(q, tenantId)).map((r) => [`${r.moment}|${r.locale}`, { subject: r.subject, body: r.body }]));
  return (moment, locale) => own.get(`${moment}|${locale}`) ?? DEFAULT_TEMPLATES[locale][moment];
}

async function tell(tx: Tx, deps: Deps, tenantId: string, item: DueMoment, templateOf: TemplateOf, now: Date): Promise<boolean> {
  const { stop, moment } = item;
  if (!(await repo.claimMoment(tx, { tenantId, stopId: stop.stopId, moment, bookingId: stop.bookingId, createdAt: now }))) return false;
  const [links, eventData] = await Promise.all([trackingLinksOf(tx, deps, tenantId, [stop.bookingId]), bookingEventDataOf(tx, tenantId, [stop.bookingId])]);
  const trackingUrl = links.get(stop.bookingId)?.url ?? null;
  const lang = stop.contact?.locale === 'de' ? 'de' : 'en';
  const message = recipientMessage(templateOf(moment, lang), {
    lang,
    name: stop.contact?.name ?? null,
    eta: stop.eta,
    timeWindow: stop.timeWindow,
    nextAttempt: stop.nextAttempt,
    proof: stop.proof,
    timeZone: item.timeZone,
    trackingUrl,
  });
  const email = stop.contact?.email?.trim().toLowerCase() || null;
  const about = { tenantId, bookingId: stop.bookingId, stopId: stop.stopId, moment, createdAt: now };
  // Nothing goes to SMTP without one valid recipient (decision 1622); the event says why an e-mail was not sent.
  const unsendable = addressProblem(email);
  if (unsendable === 'invalid_address') await messages.insertMessage(tx, { ...about, id: newId(), channel: 'email', to: email!, status: 'failed', error: NOT_SENT.invalidAddress });
  const notSent: EmailNotSent | null = unsendable ?? (await mail(tx, deps, { about, email: email!, lang, message }));
  await textMessage(tx, deps, { about, serviceAreaId: stop.serviceAreaId, phone: stop.contact?.phone_number ?? null, lang, text: message.text, trackingUrl });
  const mailed = notSent === null;
  if (mailed && email) await repo.setNotifiedEmail(tx, { tenantId, stopId: stop.stopId, moment }, email);
  await recordEvent(tx, {
    tenantId,
    actor: 'system',
    type: 'booking.recipient_notification_due',
    resourceId: stop.bookingId,
    data: {
      ...(eventData.get(stop.bookingId) ?? { booking_id: stop.bookingId }),
      stop_id: stop.stopId,
      moment,
      locale: lang,
      recipient: { name: stop.contact?.name ?? null, email: stop.contact?.email ?? null, phone_number: stop.contact?.phone_number ?? null },
      subject: message.subject,
      text: message.text,
      tracking_url: trackingUrl,
      email_sent: mailed,
      email_not_sent: notSent,
    },
    at: now,
  });
  return true;
}

type MessageAbout = Pick<messages.MessageRow, 'tenantId' | 'bookingId' | 'stopId' | 'moment' | 'createdAt'>;

/**
 * Queues the e-mail unless the address opted out, as a recipient message with its send job (decision 1761). The
 * unsubscribe token is derived under the master key from tenant and address (as tracking links, decision 1100), so
 * every e-mail to an address carries the same link; without a master key there is neither a tracking link nor an
 * unsubscribe link, and no e-mail.
 */
async function mail(tx: Tx, deps: Deps, input: { about: MessageAbout; email: string; lang: 'en' | 'de'; message: { subject: string; text: string } }): Promise<EmailNotSent | null> {
  const { about } = input;
  const row = { ...about, id: newId(), channel: 'email' as const, to: input.email };
  const [key] = masterKeyRingFor(deps.config);
  if (!key) {
    await messages.insertMessage(tx, { ...row, status: 'failed', error: NOT_SENT.noTrackingLink });
    return 'no_tracking_link';
  }
  const token = createHmac('sha256', key.key).update(`tourbook-recipient-unsubscribe\0${about.tenantId}\0${input.email}`).digest('base64url');
  const { unsubscribed } = await repo.upsertAddress(tx, { tenantId: about.tenantId, email: input.email, tokenHash: hashToken(token), createdAt: about.createdAt });
  if (unsubscribed) {
    await messages.insertMessage(tx, { ...row, status: 'failed', error: NOT_SENT.unsubscribed });
    return 'unsubscribed';
  }
  const url = unsubscribeUrl(deps.config, token);
  await messages.insertMessage(tx, { ...row, status: 'queued', error: null });
  const payload: SendMessagePayload = { message_id: row.id, subject: input.message.subject, text: recipientMailText(input.lang, input.message.text, url), headers: unsubscribeHeaders(url) };
  await scheduleJob(tx, { tenantId: about.tenantId, kind: SEND_MESSAGE_JOB, payload: { ...payload }, dueAt: about.createdAt, now: about.createdAt, maxAttempts: SEND_MESSAGE_ATTEMPTS });
  return null;
}

/**
 * The moment's SMS where the drop-off's contact has a phone number and an SMS gateway is configured (contract §18,
 * decision 1762): queued with its send job, or recorded as failed in words — a number that is not E.164, no tracking
 * link to carry, a number that replied STOP.
 */
async function textMessage(tx: Tx, deps: Deps, input: { about: MessageAbout; serviceAreaId: string; phone: string | null; lang: 'en' | 'de'; text: string; trackingUrl: string | null }): Promise<void> {
  const phone = input.phone?.trim();
  if (!phone || !deps.config.sms) return;
  const { about } = input;
  const reading = phoneNumberToE164(phone, null);
  const row = { ...about, id: newId(), channel: 'sms' as const, to: reading.ok ? reading.e164 : phone };
  const problem = !reading.ok
    ? NOT_SENT.invalidNumber(phone)
    : !input.trackingUrl
      ? NOT_SENT.noTrackingLink
      : (await messages.optedOutPhones(tx, about.tenantId, [row.to])).size
        ? NOT_SENT.optedOut
        : null;
  if (problem) {
    await messages.insertMessage(tx, { ...row, status: 'failed', error: problem });
    return;
  }
  await messages.insertMessage(tx, { ...row, status: 'queued', error: null });
  const payload: SendMessagePayload = { message_id: row.id, text: recipientSmsText(input.lang, input.text), status_url: smsStatusUrl(deps.config, about.tenantId, row.id), service_area_id: input.serviceAreaId };
  await scheduleJob(tx, { tenantId: about.tenantId, kind: SEND_MESSAGE_JOB, payload: { ...payload }, dueAt: about.createdAt, now: about.createdAt, maxAttempts: SEND_MESSAGE_ATTEMPTS });
}

/**
 * Where the gateway reports an SMS's delivery (docs/api-guide.md "Recipient messages"). Kannel: our status route with
 * the callback secret, the tenant and the message, and Kannel's %d (type) and %A (the carrier's answer), which it fills
 * in. Twilio: our Twilio status route, which its signature authenticates and its SID names the message at (decision
 * 1782). SMPP: the bridge's status route (the session posts the receipts it gets there; decision 1783). Null without
 * SMS_CALLBACK_SECRET (Kannel, SMPP): no receipts are asked for, and a sent SMS stays `sent`.
 */
export function smsStatusUrl(config: Deps['config'], tenantId: string, messageId: string): string | null {
  if (config.sms?.provider === 'twilio') return `${baseUrl(config)}/api/sms/twilio/status`;
  const secret = config.sms?.callbackSecret;
  if (!secret) return null;
  if (config.sms?.provider === 'smpp') return `${baseUrl(config)}/api/sms/smpp/status?secret=${secret}`;
  return `${baseUrl(config)}/api/sms/kannel/status?secret=${secret}&tenant=${tenantId}&message=${messageId}&type=%d&answer=%A`;
}

/** RFC 8058's POST: the token's address gets no more e-mails from its tenant. 404 for a token no address has. */
export async function unsubscribe(deps: Deps, token: string): Promise<boolean> {
  return repo.unsubscribeByTokenHash(deps.db, hashToken(token), deps.clock.now());
}

/** Whether a token names an address (the confirmation page, before the POST). */
export async function unsubscribeTokenExists(deps: Deps, token: string): Promise<boolean> {
  return repo.addressExists(deps.db, hashToken(token));
}
