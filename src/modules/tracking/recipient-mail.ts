// The recipient's notifications as words (decisions 1104, 1108, 1109): which moment a drop-off is at, the templates
// (Tourbook's defaults or a tenant's own, en/de) and their placeholders, and the e-mail that tells it, with the tracking
// link and the one-click unsubscribe link. Pure: no queries, no clock.
import type { Lang } from '../../http/i18n.ts';
import { RECIPIENT_MOMENTS, type RecipientLocale, type RecipientMoment } from './tables.ts';

export interface MomentFacts {
  status: 'completed' | 'failed' | 'open';
  headingHere: boolean;
  /** The stop's tour is en route. */
  enRoute: boolean;
  eta: Date | null;
}

const rank = (moment: RecipientMoment): number => RECIPIENT_MOMENTS.indexOf(moment);

/** The moments true of a drop-off now, earliest first (the sweep only sees drop-offs on a tour: `dispatched`). */
export function momentsTrueNow(stop: MomentFacts, approachingMinutes: number, now: Date): RecipientMoment[] {
  if (stop.status === 'completed') return ['delivered'];
  if (stop.status === 'failed') return ['failed'];
  const moments: RecipientMoment[] = ['dispatched'];
  if (stop.headingHere) moments.push('on_its_way');
  if (stop.enRoute && stop.eta && stop.eta.getTime() - now.getTime() <= approachingMinutes * 60_000) moments.push('approaching');
  return moments;
}

/**
 * The moment to tell now, if any (decision 1108): the latest one that is true and that the area chose — a sweep that
 * finds two at once tells only the later one — unless it, or a later moment, was told already: the recipient never
 * hears of an earlier moment after a later one.
 */
export function momentToTell(
  stop: MomentFacts,
  area: { moments: readonly RecipientMoment[]; approachingMinutes: number },
  told: ReadonlySet<RecipientMoment>,
  now: Date,
): RecipientMoment | null {
  const chosen = momentsTrueNow(stop, area.approachingMinutes, now).filter((m) => area.moments.includes(m));
  const latest = chosen.at(-1);
  if (!latest) return null;
  return [...told].some((m) => rank(m) >= rank(latest)) ? null : latest;
}

/** A template's placeholders (docs/tracking.md "Templates"); each moment offers `name`, `tracking_url` and its own. */
export const PLACEHOLDERS = ['name', 'tracking_url', 'window', 'eta', 'proof', 'next_attempt'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
export const PLACEHOLDERS_OF: Record<RecipientMoment, readonly Placeholder[]> = {
  dispatched: ['name', 'tracking_url', 'window'],
  on_its_way: ['name', 'tracking_url', 'eta', 'window'],
  approaching: ['name', 'tracking_url', 'eta', 'window'],
  delivered: ['name', 'tracking_url', 'proof'],
  failed: ['name', 'tracking_url', 'next_attempt'],
};

export interface RecipientTemplate {
  subject: string;
  body: string;
}

/** Tourbook's own texts: what a tenant without a template of its own sends, and what "Reset to default" returns to. */
export const DEFAULT_TEMPLATES: Record<RecipientLocale, Record<RecipientMoment, RecipientTemplate>> = {
  en: {
    dispatched: {
      subject: 'Your delivery is scheduled',
      body: 'Hello {{name}},\n\nyour delivery is scheduled.\nTime window: {{window}}.\n\nFollow it live: {{tracking_url}}',
    },
    on_its_way: {
      subject: 'Your delivery is on its way',
      body: 'Hello {{name}},\n\nyour delivery is on its way: the driver is heading to you now.\nExpected around {{eta}}.\n\nFollow it live: {{tracking_url}}',
    },
    approaching: {
      subject: 'Your delivery arrives soon',
      body: 'Hello {{name}},\n\nyour delivery is almost there.\nExpected around {{eta}}.\n\nFollow it live: {{tracking_url}}',
    },
    delivered: {
      subject: 'Your delivery has arrived',
      body: 'Hello {{name}},\n\nyour delivery has been delivered.\n{{proof}}\n\nFollow it live: {{tracking_url}}',
    },
    failed: {
      subject: 'We could not deliver today',
      body: 'Hello {{name}},\n\nwe could not make your delivery.\nWe will try again {{next_attempt}}.\n\nFollow it live: {{tracking_url}}',
    },
  },
  de: {
    dispatched: {
      subject: 'Ihre Lieferung ist eingeplant',
      body: 'Hallo {{name}},\n\nIhre Lieferung ist eingeplant.\nZeitfenster: {{window}}.\n\nLive verfolgen: {{tracking_url}}',
    },
    on_its_way: {
      subject: 'Ihre Lieferung ist unterwegs',
      body: 'Hallo {{name}},\n\nIhre Lieferung ist unterwegs: der Fahrer ist jetzt auf dem Weg zu Ihnen.\nVoraussichtlich gegen {{eta}}.\n\nLive verfolgen: {{tracking_url}}',
    },
    approaching: {
      subject: 'Ihre Lieferung ist gleich da',
      body: 'Hallo {{name}},\n\nIhre Lieferung ist fast bei Ihnen.\nVoraussichtlich gegen {{eta}}.\n\nLive verfolgen: {{tracking_url}}',
    },
    delivered: {
      subject: 'Ihre Lieferung ist angekommen',
      body: 'Hallo {{name}},\n\nIhre Lieferung wurde zugestellt.\n{{proof}}\n\nLive verfolgen: {{tracking_url}}',
    },
    failed: {
      subject: 'Wir konnten heute nicht zustellen',
      body: 'Hallo {{name}},\n\nwir konnten Ihre Lieferung nicht zustellen.\nWir versuchen es {{next_attempt}} erneut.\n\nLive verfolgen: {{tracking_url}}',
    },
  },
};

/** Bounds of a template's texts. */
export const TEMPLATE_LIMITS = { subject: 200, body: 5000 } as const;

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

export interface TemplateProblem {
  field: 'subject' | 'body';
  code: 'unknown_placeholder' | 'missing_placeholder' | 'invalid_value';
  detail: string;
}

/**
 * What is wrong with a tenant's template for a moment: a placeholder the moment does not offer (or a stray `{{`/`}}`),
 * a subject on more than one line, and a body without `{{tracking_url}}` — every message carries the link (decision 1109).
 */
export function templateProblems(moment: RecipientMoment, template: RecipientTemplate): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  const allowed = PLACEHOLDERS_OF[moment];
  for (const field of ['subject', 'body'] as const) {
    const text = template[field];
    const unknown = [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((name) => !(allowed as readonly string[]).includes(name));
    const offered = allowed.map((p) => `{{${p}}}`).join(', ');
    if (unknown.length) problems.push({ field, code: 'unknown_placeholder', detail: `Unknown placeholder {{${unknown[0]}}}: this moment offers ${offered}.` });
    else if (/\{\{|\}\}/.test(text.replace(PLACEHOLDER, ''))) problems.push({ field, code: 'unknown_placeholder', detail: 'A brace pair is left open; placeholders are written in double braces.' });
  }
  if (/[\r\n]/.test(template.subject)) problems.push({ field: 'subject', code: 'invalid_value', detail: 'The subject is one line.' });
  if (!problems.some((p) => p.field === 'body') && ![...template.body.matchAll(PLACEHOLDER)].some((m) => m[1] === 'tracking_url')) {
    problems.push({ field: 'body', code: 'missing_placeholder', detail: 'The body must carry the tracking link (the tracking_url placeholder).' });
  }
  return problems;
}

/** The facts a message is written from (the sweep's stop, or the preview's sample). */
export interface RecipientMailFacts {
  lang: Lang;
  name: string | null;
  eta: Date | null;
  timeWindow: { startsAt: Date; endsAt: Date } | null;
  nextAttempt: { startsAt: Date | null; endsAt: Date | null } | null;
  proof: { recipientName: string | null; photo: boolean } | null;
  timeZone: string;
  trackingUrl: string | null;
}

const WORDS = {
  en: {
    between: (from: string, to: string) => `between ${from} and ${to}`,
    soon: 'soon',
    receivedBy: (name: string) => `Received by ${name}.`,
    photo: 'A photo of the delivery is on the tracking page.',
    footer: 'You receive this e-mail because a delivery was sent to this address.',
    unsubscribe: (url: string) => `No more delivery e-mails to this address: ${url}`,
  },
  de: {
    between: (from: string, to: string) => `zwischen ${from} und ${to}`,
    soon: 'bald',
    receivedBy: (name: string) => `Entgegengenommen von ${name}.`,
    photo: 'Ein Foto der Zustellung finden Sie auf der Seite der Sendungsverfolgung.',
    footer: 'Sie erhalten diese E-Mail, weil eine Lieferung an diese Adresse ging.',
    unsubscribe: (url: string) => `Keine Liefer-E-Mails mehr an diese Adresse: ${url}`,
  },
} as const;

const formatTime = (lang: Lang, timeZone: string, at: Date): string =>
  new Intl.DateTimeFormat(lang === 'de' ? 'de-DE' : 'en-GB', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' }).format(at);

/** Each placeholder's value in the message's language and the area's zone; empty when the fact is not there. */
export function placeholderValues(facts: RecipientMailFacts): Record<Placeholder, string> {
  const words = WORDS[facts.lang];
  const time = (at: Date) => formatTime(facts.lang, facts.timeZone, at);
  const next = facts.nextAttempt;
  const proof = facts.proof;
  return {
    name: facts.name?.trim() ?? '',
    tracking_url: facts.trackingUrl ?? '',
    eta: facts.eta ? time(facts.eta) : '',
    window: facts.timeWindow ? `${time(facts.timeWindow.startsAt)} – ${time(facts.timeWindow.endsAt)}` : '',
    next_attempt: !next ? '' : next.startsAt && next.endsAt ? words.between(time(next.startsAt), time(next.endsAt)) : words.soon,
    proof: proof ? [proof.recipientName ? words.receivedBy(proof.recipientName) : '', proof.photo ? words.photo : ''].filter(Boolean).join(' ') : '',
  };
}

/**
 * The template with its placeholders filled (decision 1109). A body line with a placeholder that has no value (no
 * ETA yet, no next attempt, no proof, no link) is left out; an empty `{{name}}` takes the space before it along
 * ("Hello {{name}}," → "Hello,").
 */
export function renderTemplate(template: RecipientTemplate, values: Record<Placeholder, string>): { subject: string; text: string } {
  // One pass: a value (a recipient's name) is never read as a placeholder itself.
  const fill = (line: string) =>
    line.replace(/( ?)\{\{\s*([^{}]*?)\s*\}\}/g, (_m, space: string, name: string) => {
      const value = values[name as Placeholder] ?? '';
      return value ? `${space}${value}` : name === 'name' ? '' : space;
    });
  const missing = (line: string) => [...line.matchAll(PLACEHOLDER)].some((m) => m[1] !== 'name' && !values[m[1] as Placeholder]);
  const lines = template.body.replace(/\r\n?/g, '\n').split('\n').filter((line) => !missing(line)).map((line) => fill(line).trimEnd());
  const text = lines.join('\n').replace(/\n{3,}/g, '\n\n').trim();
  return { subject: fill(template.subject).replace(/\s+/g, ' ').trim(), text };
}

/** Subject and text of the moment's message: what the e-mail says, and what `booking.recipient_notification_due` carries. */
export const recipientMessage = (template: RecipientTemplate, facts: RecipientMailFacts): { subject: string; text: string } =>
  renderTemplate(template, placeholderValues(facts));

/** The e-mail's text: the message, then why it came and the unsubscribe link (RFC 8058 asks for one in the body too). */
export const recipientMailText = (lang: Lang, message: string, unsubscribeUrl: string): string =>
  `${message}\n\n-- \n${WORDS[lang].footer}\n${WORDS[lang].unsubscribe(unsubscribeUrl)}\n`;

/** The headers of RFC 8058's one-click unsubscribe: a mail client POSTs `List-Unsubscribe=One-Click` to the URL. */
export const unsubscribeHeaders = (unsubscribeUrl: string): Record<string, string> => ({
  'List-Unsubscribe': `<${unsubscribeUrl}>`,
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
});
