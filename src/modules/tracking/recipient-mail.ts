// The recipient's notifications as words (decision 1104): which moment a drop-off is at, and the e-mail (en/de) that
// tells it, with the tracking link and the one-click unsubscribe link. Pure: no queries, no clock.
import type { Lang } from '../../http/i18n.ts';
import type { RecipientMoment } from './tables.ts';

export interface MomentFacts {
  status: 'completed' | 'failed' | 'open';
  headingHere: boolean;
}

/** The moment a drop-off is at, if any: the driver heading to it next, delivered, or failed. */
export function momentOf(stop: MomentFacts): RecipientMoment | null {
  if (stop.status === 'completed') return 'delivered';
  if (stop.status === 'failed') return 'failed';
  return stop.headingHere ? 'on_its_way' : null;
}

export interface RecipientMailFacts {
  moment: RecipientMoment;
  lang: Lang;
  name: string | null;
  eta: Date | null;
  nextAttempt: { startsAt: Date | null; endsAt: Date | null } | null;
  timeZone: string;
  trackingUrl: string | null;
}

const TEXTS = {
  en: {
    hello: (name: string | null) => (name ? `Hello ${name},` : 'Hello,'),
    on_its_way: { subject: 'Your delivery is on its way', body: 'your delivery is on its way: the driver is heading to you now.' },
    delivered: { subject: 'Your delivery has arrived', body: 'your delivery has been delivered.' },
    failed: { subject: 'We could not deliver today', body: 'we could not make your delivery.' },
    eta: (at: string) => `Expected around ${at}.`,
    next: (from: string, to: string) => `We will try again between ${from} and ${to}.`,
    nextUnknown: 'We will try again; the link below shows when.',
    follow: (url: string) => `Follow it live: ${url}`,
    footer: 'You receive this e-mail because a delivery was sent to this address.',
    unsubscribe: (url: string) => `No more delivery e-mails to this address: ${url}`,
  },
  de: {
    hello: (name: string | null) => (name ? `Hallo ${name},` : 'Hallo,'),
    on_its_way: { subject: 'Ihre Lieferung ist unterwegs', body: 'Ihre Lieferung ist unterwegs: der Fahrer ist jetzt auf dem Weg zu Ihnen.' },
    delivered: { subject: 'Ihre Lieferung ist angekommen', body: 'Ihre Lieferung wurde zugestellt.' },
    failed: { subject: 'Wir konnten heute nicht zustellen', body: 'wir konnten Ihre Lieferung nicht zustellen.' },
    eta: (at: string) => `Voraussichtlich gegen ${at}.`,
    next: (from: string, to: string) => `Wir versuchen es erneut zwischen ${from} und ${to}.`,
    nextUnknown: 'Wir versuchen es erneut; der Link unten zeigt, wann.',
    follow: (url: string) => `Live verfolgen: ${url}`,
    footer: 'Sie erhalten diese E-Mail, weil eine Lieferung an diese Adresse ging.',
    unsubscribe: (url: string) => `Keine Liefer-E-Mails mehr an diese Adresse: ${url}`,
  },
} as const;

const formatTime = (lang: Lang, timeZone: string, at: Date): string =>
  new Intl.DateTimeFormat(lang === 'de' ? 'de-DE' : 'en-GB', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' }).format(at);

/** Subject and text of the moment's message: what the e-mail says, and what `booking.recipient_notification_due` carries. */
export function recipientMessage(facts: RecipientMailFacts): { subject: string; text: string } {
  const words = TEXTS[facts.lang];
  const time = (at: Date) => formatTime(facts.lang, facts.timeZone, at);
  const lines = [words.hello(facts.name), '', words[facts.moment].body];
  if (facts.moment === 'on_its_way' && facts.eta) lines.push(words.eta(time(facts.eta)));
  if (facts.moment === 'failed' && facts.nextAttempt) {
    const { startsAt, endsAt } = facts.nextAttempt;
    lines.push(startsAt && endsAt ? words.next(time(startsAt), time(endsAt)) : words.nextUnknown);
  }
  if (facts.trackingUrl) lines.push('', words.follow(facts.trackingUrl));
  return { subject: words[facts.moment].subject, text: lines.join('\n') };
}

/** The e-mail's text: the message, then why it came and the unsubscribe link (RFC 8058 asks for one in the body too). */
export const recipientMailText = (lang: Lang, message: string, unsubscribeUrl: string): string =>
  `${message}\n\n-- \n${TEXTS[lang].footer}\n${TEXTS[lang].unsubscribe(unsubscribeUrl)}\n`;

/** The headers of RFC 8058's one-click unsubscribe: a mail client POSTs `List-Unsubscribe=One-Click` to the URL. */
export const unsubscribeHeaders = (unsubscribeUrl: string): Record<string, string> => ({
  'List-Unsubscribe': `<${unsubscribeUrl}>`,
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
});
