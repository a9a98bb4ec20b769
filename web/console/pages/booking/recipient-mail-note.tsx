// Why a recipient e-mail was not sent, in words on the booking's timeline (decision 1622): the event's `email_not_sent`.
import { defineMessages, useT } from '../../../i18n/index.tsx';

const REASONS = ['no_address', 'invalid_address', 'unsubscribed', 'no_tracking_link'] as const;
type Reason = (typeof REASONS)[number];

const messages = defineMessages({
  en: {
    sent: 'E-mail sent to the recipient.',
    'not_sent.no_address': 'No e-mail sent: the drop-off has no e-mail address.',
    'not_sent.invalid_address': 'No e-mail sent: the drop-off’s e-mail address is not a valid address. Correct it on the booking.',
    'not_sent.unsubscribed': 'No e-mail sent: the recipient unsubscribed from delivery e-mails.',
    'not_sent.no_tracking_link': 'No e-mail sent: Tourbook has no master key for tracking links (see the operations guide).',
  },
  de: {
    sent: 'E-Mail an den Empfänger gesendet.',
    'not_sent.no_address': 'Keine E-Mail gesendet: Für die Zustellung ist keine E-Mail-Adresse hinterlegt.',
    'not_sent.invalid_address': 'Keine E-Mail gesendet: Die E-Mail-Adresse der Zustellung ist keine gültige Adresse. Korrigieren Sie sie in der Buchung.',
    'not_sent.unsubscribed': 'Keine E-Mail gesendet: Der Empfänger hat Liefer-E-Mails abbestellt.',
    'not_sent.no_tracking_link': 'Keine E-Mail gesendet: Tourbook hat keinen Hauptschlüssel für Tracking-Links (siehe Betriebshandbuch).',
  },
});

const isReason = (value: unknown): value is Reason => (REASONS as readonly unknown[]).includes(value);

/** Under a `booking.recipient_notification_due` event: sent, or why not; nothing under any other event. */
export function RecipientMailNote({ event }: { event: { type: string; data?: unknown } }) {
  const t = useT(messages);
  if (event.type !== 'booking.recipient_notification_due' || !event.data || typeof event.data !== 'object') return null;
  const data = event.data as { email_sent?: unknown; email_not_sent?: unknown };
  if (data.email_sent === true) return <div>{t('sent')}</div>;
  if (isReason(data.email_not_sent)) return <div role="note">{t(`not_sent.${data.email_not_sent}`)}</div>;
  return null;
}
