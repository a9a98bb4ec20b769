// The booking's timeline (decision 1662): its own events, newest first, each with its type's label and what it says
// in words (event-detail.tsx); the stop-failure reasons in the page's language name a failure's reason.
import { useStopFailureReasonLabels, type Schemas } from '../../../api/index.ts';
import { useEventLabel } from '../../../i18n/event-types.ts';
import { useFormat, useLang, useT } from '../../../i18n/index.tsx';
import { ErrorBanner } from '../../../ui/index.ts';
import { EventDetail } from './event-detail.tsx';
import { messages } from './messages.ts';

type Event = Schemas['Event'];

export function BookingTimeline({ events, zone }: { events: { data?: Event[]; isError: boolean; error: unknown }; zone: string | undefined }) {
  const t = useT(messages);
  const label = useEventLabel();
  const format = useFormat();
  const reasons = useStopFailureReasonLabels(useLang().lang);
  return (
    <section className="stack" aria-labelledby="booking-timeline">
      <h2 id="booking-timeline">{t('timeline')}</h2>
      {events.isError ? <ErrorBanner error={events.error} /> : null}
      {events.data?.length === 0 ? <p className="muted">{t('no_events')}</p> : null}
      <ol className="plain-list stack">
        {(events.data ?? []).map((event) => (
          <li key={event.id} className="card">
            <strong>{label(event.type)}</strong>
            <div className="muted">{format.dateTime(event.timestamp, zone)}</div>
            <EventDetail event={event} reasons={reasons.data} />
          </li>
        ))}
      </ol>
    </section>
  );
}
