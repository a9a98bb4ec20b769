// The booking's recipient messages (contract §18): every e-mail and SMS the recipients were told, oldest first, with its
// channel, number or address, moment, state and — for a failed one — why, in the gateway's or Tourbook's words.
import { defineMessages, useFormat, useT } from '../../../i18n/index.tsx';
import { Badge, ErrorBanner } from '../../../ui/index.ts';
import type { BookingMessage as Message } from './queries.ts';

const messages = defineMessages({
  en: {
    heading: 'Messages to the recipient',
    none: 'No e-mail or SMS has been sent to the recipient of this booking yet.',
    to: 'To {to}',
    error: 'Why: {error}',
    'channel.email': 'E-mail',
    'channel.sms': 'SMS',
    'moment.dispatched': 'Scheduled',
    'moment.on_its_way': 'On its way',
    'moment.approaching': 'Arriving soon',
    'moment.delivered': 'Delivered',
    'moment.failed': 'Not delivered',
    'status.queued': 'Waiting to be sent',
    'status.sent': 'Sent',
    'status.delivered': 'Delivered to the phone',
    'status.failed': 'Failed',
  },
  de: {
    heading: 'Nachrichten an die Empfänger',
    none: 'An die Empfänger dieser Buchung wurde noch keine E-Mail und keine SMS gesendet.',
    to: 'An {to}',
    error: 'Grund: {error}',
    'channel.email': 'E-Mail',
    'channel.sms': 'SMS',
    'moment.dispatched': 'Eingeplant',
    'moment.on_its_way': 'Unterwegs',
    'moment.approaching': 'Gleich da',
    'moment.delivered': 'Zugestellt',
    'moment.failed': 'Nicht zugestellt',
    'status.queued': 'Wartet auf Versand',
    'status.sent': 'Gesendet',
    'status.delivered': 'Auf dem Telefon angekommen',
    'status.failed': 'Fehlgeschlagen',
  },
});

const TONES = { queued: 'warn', sent: 'info', delivered: 'ok', failed: 'danger' } as const;

export function BookingMessages({ list, zone }: { list: { data?: Message[]; isError: boolean; error: unknown }; zone: string | undefined }) {
  const t = useT(messages);
  const format = useFormat();
  return (
    <section className="stack" aria-labelledby="booking-messages">
      <h2 id="booking-messages">{t('heading')}</h2>
      {list.isError ? <ErrorBanner error={list.error} /> : null}
      {list.data?.length === 0 ? <p className="muted">{t('none')}</p> : null}
      {list.data?.length ? (
        <ol className="plain-list stack">
          {list.data.map((m) => (
            <li key={m.id} className="card">
              <div className="row-between">
                <strong>
                  {t(`channel.${m.channel}`)} · {t(`moment.${m.moment}`)}
                </strong>
                <Badge tone={TONES[m.status]}>{t(`status.${m.status}`)}</Badge>
              </div>
              <div className="break">{t('to', { to: m.to })}</div>
              <div className="muted">{format.dateTime(m.created_at, zone)}</div>
              {m.error ? <div role="note">{t('error', { error: m.error })}</div> : null}
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
