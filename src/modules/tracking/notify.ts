// Recipient notifications (decisions 1104, 1108, 1109, 1787): a sweep — every 30 s, and a tenant's own shortly after
// each of its dispatch changes — finds drop-offs at a moment worth telling — on a tour, the driver heading there,
// close by, delivered, failed — and tells each moment once, a chunk of moments at a time: an e-mail (the
// tenant's template or Tourbook's, en/de, tracking link, RFC 8058 one-click unsubscribe) and an SMS where the contact has
// a phone number (decision 1762), each a recipient message with its send job (decision 1761), and
// `booking.recipient_notification_due` for integrators' other channels.
import { createHash, createHmac } from 'node:crypto';
import type { Deps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { masterKeyRingFor } from '../../crypto/master-key.ts';
import { insertAll, rowsOf } from '../../db/json-insert.ts';
import { eventRows } from '../../events/outbox.ts';
import { addressProblem, type AddressProblem } from '../../mail/index.ts';
import { phoneNumberToE164 } from '../../shared/contact.ts';
import { newId, NIL_UUID } from '../../shared/ids.ts';
import type { TrackedToursChanged } from '../../seams/index.ts';
import { ensureJob, jobRows, scheduleJob, type ScheduleJob } from '../../worker/jobs.ts';
import type { JobKind } from '../../worker/job-kinds.ts';
import type { JobHandler } from '../../worker/registry.ts';
import { bookingEventDataOf, recipientStopsAtAMoment, trackingLinksOf, type RecipientStop } from '../dispatch/index.ts';
import { serviceAreasNotifyingRecipients } from '../identity/index.ts';
import { DEFAULT_TEMPLATES, momentToTell, recipientMailText, recipientMessage, unsubscribeHeaders, type RecipientTemplate } from './recipient-mail.ts';
import * as messages from './messages-repository.ts';
import * as repo from './recipient-repository.ts';
import { NOT_SENT, recipientSmsText } from './recipient-sms.ts';
import { SEND_MESSAGE_ATTEMPTS, SEND_MESSAGE_JOB, type SendMessagePayload } from './send-message.ts';
import { recipientMessages, type RecipientLocale, type RecipientMoment } from './tables.ts';

/** Why a recipient e-mail was not sent (the event's `email_not_sent`; the console says it in words, decision 1622). */
export type EmailNotSent = AddressProblem | 'unsubscribed' | 'no_tracking_link';

export const NOTIFY_RECIPIENTS_JOB: JobKind = 'tracking.notify_recipients';
/** How often the sweep looks anyway: a moment no dispatch change makes (`approaching`) is told at most this late. */
export const NOTIFY_INTERVAL_SECONDS = 30;
/** How far back a finished stop still counts as news: covers a worker that was down, never a stop of last week. */
export const NOTIFY_LOOKBACK_SECONDS = 3600;
/**
 * How long after a dispatch change its tenant's sweep runs (decision 1787): the changes of that time are told in one
 * sweep, and no moment a change makes waits for the 30 s sweep.
 */
export const NOTIFY_WAKE_DELAY_MS = 250;
/** Moments told per transaction: their SMS leave while the next chunk is written (decision 1787). */
export const NOTIFY_CHUNK = 250;

const sweep = { tenantId: NIL_UUID, kind: NOTIFY_RECIPIENTS_JOB, dedupeKey: 'notify-recipients', payload: {} };
/**
 * A tenant's sweep woken by its dispatch changes: one pending per tour, not per tenant. The change holds its tours'
 * locks, so two transactions never insert the same key at once; one key per tenant would make each of a tenant's
 * dispatch writes wait at this insert for the other's commit (a unique insert waits on an uncommitted twin).
 */
const WOKEN_SWEEP_KEY = 'notify-recipients:woken';

export async function ensureRecipientNotifications(deps: Deps): Promise<void> {
  const now = deps.clock.now();
  await ensureJob(deps.db, { ...sweep, dueAt: now, now });
}

/**
 * Dispatch's reaction (`trackedToursChanged`, in the change's transaction): the tenant's sweep runs shortly, since a
 * change touching tours — dispatched, started, a stop completed or failed — may have made a moment due. The first
 * change of a tour schedules it NOTIFY_WAKE_DELAY_MS on, keyed by the first of the change's tours (all locked by it);
 * the changes before it runs find it pending and change nothing. A change while it runs schedules the next.
 */
export async function wakeRecipientNotifications(tx: Tx, change: TrackedToursChanged): Promise<void> {
  const [tour] = change.tours.map((t) => t.id).sort();
  if (!tour) return;
  await ensureJob(tx, { tenantId: change.tenantId, kind: NOTIFY_RECIPIENTS_JOB, dedupeKey: `${WOKEN_SWEEP_KEY}:${tour}`, payload: {}, dueAt: new Date(change.at.getTime() + NOTIFY_WAKE_DELAY_MS), now: change.at });
}

export const notifyRecipientsJob: JobHandler = async (deps, job) => {
  // A tenant's woken sweep looks at that tenant only and schedules nothing.
  if (job.tenantId !== NIL_UUID) {
    await notifyRecipients(deps, { tenantId: job.tenantId });
    return;
  }
  // Scheduled first: a sweep that fails still leaves the next one in place.
  const now = deps.clock.now();
  await scheduleJob(deps.db, { ...sweep, dueAt: new Date(now.getTime() + NOTIFY_INTERVAL_SECONDS * 1000), now });
  await notifyRecipients(deps);
};

const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');
/** Where recipients reach the service (`PUBLIC_URL`, else the listening address). */
export const baseUrl = (config: Deps['config']): string => (config.publicUrl ?? `http://${config.host}:${config.port}`).replace(/\/+$/, '');
export const unsubscribeUrl = (config: Deps['config'], token: string): string => `${baseUrl(config)}/unsubscribe/${token}`;

/**
 * One sweep: every due moment of every tenant (or of `only.tenantId`), each tenant's in chunks of NOTIFY_CHUNK, a
 * transaction each. Answers how many were told.
 */
export async function notifyRecipients(deps: Deps, only: { tenantId?: string } = {}): Promise<number> {
  const now = deps.clock.now();
  // Only the areas that chose some moment are looked at (decision 1104); only those that chose `dispatched` or
  // `approaching` cost a look at their other open drop-offs (decision 1108).
  const notifying = await serviceAreasNotifyingRecipients(deps.db);
  const areas = new Map(notifying.filter((a) => !only.tenantId || a.tenantId === only.tenantId).map((a) => [a.id, a]));
  if (!areas.size) return 0;
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
    const templates = await tenantTemplates(deps.db, tenantId);
    // In stop order: sweeps at once claim overlapping moments in one order (recipient-repository.ts claimMoments).
    items.sort((a, b) => (a.stop.stopId < b.stop.stopId ? -1 : a.stop.stopId > b.stop.stopId ? 1 : 0));
    for (let i = 0; i < items.length; i += NOTIFY_CHUNK) {
      count += await deps.db.transaction((tx) => tellMoments(tx, deps, tenantId, items.slice(i, i + NOTIFY_CHUNK), templates, now));
    }
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

/** One moment's writes, gathered for the chunk's few statements. */
interface Told {
  messages: MessageRowInput[];
  jobs: Omit<ScheduleJob, 'dedupeKey'>[];
}
type MessageRowInput = Omit<messages.MessageRow, 'sendingUntil' | 'providerRef' | 'updatedAt'>;
const messageRow = (row: MessageRowInput): messages.MessageRow => ({ ...row, providerRef: null, sendingUntil: null, updatedAt: row.createdAt });

/**
 * Tells a chunk of one tenant's due moments in its transaction, in a few statements for the whole chunk (decision
 * 1787): the claims, the tracking links and the bookings' event data, the opted-out numbers, the addresses, then the
 * messages, their send jobs and the events in one insert. Answers how many this call told.
 */
async function tellMoments(tx: Tx, deps: Deps, tenantId: string, items: readonly DueMoment[], templateOf: TemplateOf, now: Date): Promise<number> {
  const claimed = await repo.claimMoments(tx, items.map(({ stop, moment }) => ({ tenantId, stopId: stop.stopId, moment, bookingId: stop.bookingId, createdAt: now })));
  const told = items.filter(({ stop, moment }) => claimed.has(`${stop.stopId}|${moment}`));
  if (!told.length) return 0;
  const bookingIds = [...new Set(told.map((item) => item.stop.bookingId))];
  const [links, eventData] = await Promise.all([trackingLinksOf(tx, deps, tenantId, bookingIds), bookingEventDataOf(tx, tenantId, bookingIds)]);
  const texts = told.map((item) => {
    const { stop, moment } = item;
    const trackingUrl = links.get(stop.bookingId)?.url ?? null;
    const lang: 'en' | 'de' = stop.contact?.locale === 'de' ? 'de' : 'en';
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
    const about: MessageAbout = { tenantId, bookingId: stop.bookingId, stopId: stop.stopId, moment, createdAt: now };
    return { item, trackingUrl, lang, message, email, about, unsendable: addressProblem(email) };
  });
  const tokens = unsubscribeTokens(deps, tenantId, texts.flatMap((t) => (t.unsendable ? [] : [t.email!])));
  const [unsubscribed, optedOut] = await Promise.all([
    repo.upsertAddresses(tx, [...tokens].sort(([a], [b]) => (a < b ? -1 : 1)).map(([email, token]) => ({ tenantId, email, tokenHash: hashToken(token), createdAt: now }))),
    messages.optedOutPhones(tx, tenantId, texts.flatMap((t) => phoneOf(deps, t.item.stop.contact?.phone_number ?? null)?.e164 ?? [])),
  ]);
  const out: Told = { messages: [], jobs: [] };
  const mailed: { stopId: string; moment: RecipientMoment; email: string }[] = [];
  const events = texts.map(({ item, trackingUrl, lang, message, email, about, unsendable }) => {
    const { stop, moment } = item;
    // Nothing goes to SMTP without one valid recipient (decision 1622); the event says why an e-mail was not sent.
    if (unsendable === 'invalid_address') out.messages.push({ ...about, id: newId(), channel: 'email', to: email!, status: 'failed', error: NOT_SENT.invalidAddress });
    const notSent: EmailNotSent | null = unsendable ?? mail(deps, out, { about, email: email!, token: tokens.get(email!) ?? null, unsubscribed: unsubscribed.has(email!), lang, message });
    textMessage(deps, out, { about, serviceAreaId: stop.serviceAreaId, phone: stop.contact?.phone_number ?? null, optedOut, lang, text: message.text, trackingUrl });
    if (notSent === null && email) mailed.push({ stopId: stop.stopId, moment, email });
    return {
      tenantId,
      actor: 'system' as const,
      type: 'booking.recipient_notification_due' as const,
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
        email_sent: notSent === null,
        email_not_sent: notSent,
      },
      at: now,
    };
  });
  await repo.setNotifiedEmails(tx, tenantId, mailed);
  await insertAll(tx, 'tell_recipient_moments', [rowsOf(recipientMessages, out.messages.map(messageRow)), jobRows(out.jobs), eventRows(events)]);
  return told.length;
}

type MessageAbout = Pick<messages.MessageRow, 'tenantId' | 'bookingId' | 'stopId' | 'moment' | 'createdAt'>;

/**
 * Each address's unsubscribe token, derived under the master key from tenant and address (as tracking links, decision
 * 1100), so every e-mail to an address carries the same link. None without a master key.
 */
function unsubscribeTokens(deps: Deps, tenantId: string, emails: readonly string[]): Map<string, string> {
  const [key] = masterKeyRingFor(deps.config);
  const tokens = new Map<string, string>();
  if (!key) return tokens;
  for (const email of emails) {
    if (!tokens.has(email)) tokens.set(email, createHmac('sha256', key.key).update(`tourbook-recipient-unsubscribe\0${tenantId}\0${email}`).digest('base64url'));
  }
  return tokens;
}

/**
 * Queues the e-mail unless the address opted out, as a recipient message with its send job (decision 1761). Without a
 * master key there is neither a tracking link nor an unsubscribe link, and no e-mail.
 */
function mail(
  deps: Deps,
  out: Told,
  input: { about: MessageAbout; email: string; token: string | null; unsubscribed: boolean; lang: 'en' | 'de'; message: { subject: string; text: string } },
): EmailNotSent | null {
  const { about } = input;
  const row = { ...about, id: newId(), channel: 'email' as const, to: input.email };
  if (!input.token) {
    out.messages.push({ ...row, status: 'failed', error: NOT_SENT.noTrackingLink });
    return 'no_tracking_link';
  }
  if (input.unsubscribed) {
    out.messages.push({ ...row, status: 'failed', error: NOT_SENT.unsubscribed });
    return 'unsubscribed';
  }
  const url = unsubscribeUrl(deps.config, input.token);
  out.messages.push({ ...row, status: 'queued', error: null });
  const payload: SendMessagePayload = { message_id: row.id, subject: input.message.subject, text: recipientMailText(input.lang, input.message.text, url), headers: unsubscribeHeaders(url) };
  out.jobs.push({ tenantId: about.tenantId, kind: SEND_MESSAGE_JOB, payload: { ...payload }, dueAt: about.createdAt, now: about.createdAt, maxAttempts: SEND_MESSAGE_ATTEMPTS });
  return null;
}

/** The contact's number read as E.164 where an SMS gateway is configured; null where no SMS is written at all. */
function phoneOf(deps: Deps, phoneNumber: string | null): { phone: string; e164: string | null } | null {
  const phone = phoneNumber?.trim();
  if (!phone || !deps.config.sms) return null;
  const reading = phoneNumberToE164(phone, null);
  return { phone, e164: reading.ok ? reading.e164 : null };
}

/**
 * The moment's SMS where the drop-off's contact has a phone number and an SMS gateway is configured (contract §18,
 * decision 1762): queued with its send job, or recorded as failed in words — a number that is not E.164, no tracking
 * link to carry, a number that replied STOP.
 */
function textMessage(
  deps: Deps,
  out: Told,
  input: { about: MessageAbout; serviceAreaId: string; phone: string | null; optedOut: ReadonlySet<string>; lang: 'en' | 'de'; text: string; trackingUrl: string | null },
): void {
  const number = phoneOf(deps, input.phone);
  if (!number) return;
  const { about } = input;
  const row = { ...about, id: newId(), channel: 'sms' as const, to: number.e164 ?? number.phone };
  const problem = !number.e164
    ? NOT_SENT.invalidNumber(number.phone)
    : !input.trackingUrl
      ? NOT_SENT.noTrackingLink
      : input.optedOut.has(number.e164)
        ? NOT_SENT.optedOut
        : null;
  if (problem) {
    out.messages.push({ ...row, status: 'failed', error: problem });
    return;
  }
  out.messages.push({ ...row, status: 'queued', error: null });
  const payload: SendMessagePayload = { message_id: row.id, text: recipientSmsText(input.lang, input.text), status_url: smsStatusUrl(deps.config, about.tenantId, row.id), service_area_id: input.serviceAreaId };
  out.jobs.push({ tenantId: about.tenantId, kind: SEND_MESSAGE_JOB, payload: { ...payload }, dueAt: about.createdAt, now: about.createdAt, maxAttempts: SEND_MESSAGE_ATTEMPTS });
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
