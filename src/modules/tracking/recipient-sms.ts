// The recipient's SMS in words (decisions 1762, 1764): the text a moment's message makes as an SMS, the stop words a
// reply opts out with, and what Kannel's receipt types mean for a message's state. Pure: no queries, no clock.
import type { Lang } from '../../http/i18n.ts';
import type { MessageStatus } from './tables.ts';

const OPT_OUT_HINT: Record<Lang, string> = { en: 'Reply STOP to opt out.', de: 'Antworten Sie STOPP zum Abmelden.' };

/**
 * The SMS of a moment: the same rendered template as the e-mail (its text, not its subject) on one line — a line break
 * ends the message for some SMSC links (Kannel's fake SMSC among them; decision 1762) — and the way out a reply gives.
 */
export function recipientSmsText(lang: Lang, messageText: string): string {
  const lines = gsmFriendly(messageText).split('\n').map((l) => l.trim()).filter(Boolean);
  return [...lines, OPT_OUT_HINT[lang]].join(' ');
}

/**
 * The typography a rendered text carries that GSM-7 has no place for — dashes, curly quotes, the narrow spaces Intl
 * puts in times — as their plain look-alikes: one such character would send the whole SMS as UCS-2, at 70 characters a
 * segment instead of 160 (decision 1765). Letters are left alone: a name in another script goes as UCS-2.
 */
export function gsmFriendly(text: string): string {
  return text
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u2018\u2019\u201A\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201E\u2033]/g, '"')
    .replace(/\u2026/g, '...')
    .replace(/[\u00A0\u2000-\u200A\u202F\u205F]/g, ' ');
}

/** A reply that opts its number out (contract §18): its first word is STOP, STOPP or ABMELDEN, in any case. */
export const STOP_WORDS = ['STOP', 'STOPP', 'ABMELDEN'] as const;
export function isStopReply(text: string): boolean {
  const first = text.trim().split(/[\s.,!;:]+/, 1)[0] ?? '';
  return (STOP_WORDS as readonly string[]).includes(first.toUpperCase());
}

/**
 * Kannel's DLR types (its `%d`): 1 delivered to the phone, 2 not delivered, 4 queued on the SMSC, 8 accepted by the
 * SMSC, 16 refused by the SMSC. Null for a type Kannel does not define.
 */
export function kannelReceiptStatus(type: number): MessageStatus | null {
  switch (type) {
    case 1:
      return 'delivered';
    case 2:
    case 16:
      return 'failed';
    case 4:
      return 'queued';
    case 8:
      return 'sent';
    default:
      return null;
  }
}

/**
 * The order a message's state only moves forward in: receipts arrive in any order (Kannel calls back for 8 and 1 at
 * once), so a late "accepted by the SMSC" never takes a delivered message back. Delivered and failed are final.
 */
export const STATUS_RANK: Record<MessageStatus, number> = { queued: 0, sent: 1, delivered: 2, failed: 2 };

/** Why a message was not sent, in words (the messages list's `error`). */
export const NOT_SENT = {
  invalidNumber: (to: string) => `Not sent: ${to || 'the number'} is not a valid phone number in E.164 (+ and country code).`,
  optedOut: 'Not sent: the number opted out (replied STOP).',
  unsubscribed: 'Not sent: the address unsubscribed.',
  invalidAddress: 'Not sent: the address is not a valid e-mail address.',
  noTrackingLink: 'Not sent: no tracking link could be made (REPORTS_MASTER_KEY is not set).',
  noGateway: 'Not sent: no SMS gateway is configured (SMS_PROVIDER).',
} as const;
