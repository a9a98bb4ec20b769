// The booking page: its stops (state, window, ETA, tour), packages, and its timeline (its own events, for admins and
// the managers who see it; decision 1662).
import { useState } from 'react';
import { Link } from 'wouter';
import { byId, useServiceAreas } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useFormat, useT } from '../../../i18n/index.tsx';
import { useInstructionsText } from '../../../i18n/recipient-instructions.tsx';
import { Button, Dialog, ErrorBanner, Loading, PageHead, StatusBadge } from '../../../ui/index.ts';
import { messages } from './messages.ts';
import { BookingMessages } from './booking-messages.tsx';
import { useBooking, useBookingEvents, useBookingMessages, useCancelBooking, useRecipientFeedback } from './queries.ts';
import { skipReason } from './event-detail.tsx';
import { BookingTimeline } from './timeline.tsx';

const CANCELLABLE = new Set(['to_be_dispatched', 'partially_dispatched', 'dispatched']);

export function BookingPage({ id }: { id: string }) {
  const t = useT(messages);
  const tc = useT(common);
  const instructions = useInstructionsText();
  const format = useFormat();
  const booking = useBooking(id);
  const areas = useServiceAreas();
  // Admins and managers read the timeline (the console is theirs); the API answers for the bookings they see.
  const events = useBookingEvents(id, booking.isSuccess);
  const sent = useBookingMessages(id, booking.isSuccess);
  const cancel = useCancelBooking(id);
  // Feedback is taken only after the last drop-off, so only finished bookings are asked for it.
  const feedback = useRecipientFeedback(id, booking.data?.tracking?.url, booking.data?.status === 'completed');
  const [confirming, setConfirming] = useState(false);

  if (booking.isPending) return <Loading label={tc('loading')} />;
  if (booking.isError) return <ErrorBanner error={booking.error} />;
  const b = booking.data;
  const zone = byId(areas.data).get(b.service_area_id)?.time_zone;
  return (
    <section className="stack">
      <PageHead
        title={t('title', { name: b.external_id ?? b.id.slice(-8) })}
        timeZones={zone ? [zone] : []}
        actions={
          <>
            <StatusBadge status={b.status} />
            {CANCELLABLE.has(b.status) ? (
              <Button variant="danger" onClick={() => setConfirming(true)}>
                {t('cancel')}
              </Button>
            ) : null}
          </>
        }
      />
      <ErrorBanner error={cancel.error} />
      <dl className="props card">
        <dt>{t('external_id')}</dt>
        <dd>{b.external_id ?? '—'}</dd>
        <dt>{t('created')}</dt>
        <dd>{format.dateTime(b.created_at, zone)}</dd>
        <dt>{t('scheduled')}</dt>
        <dd>{format.dateTime(b.scheduled_at, zone)}</dd>
        {b.auto_dispatch ? (
          <>
            <dt>{t('auto_dispatch')}</dt>
            <dd>
              {b.auto_dispatch.status === 'dispatched' && b.auto_dispatch.tour_id ? (
                <Link href={`/tours/${b.auto_dispatch.tour_id}`}>{t('auto_dispatch_dispatched', { id: b.auto_dispatch.tour_id.slice(-8) })}</Link>
              ) : (
                t('auto_dispatch_skipped', { reason: skipReason(t, b.auto_dispatch.reason, b.auto_dispatch.constraint) })
              )}{' '}
              <span className="muted">{format.dateTime(b.auto_dispatch.decided_at, zone)}</span>
            </dd>
          </>
        ) : null}
      </dl>
      {feedback.data ? (
        <section className="card stack" aria-labelledby="booking-feedback">
          <h2 id="booking-feedback">{t('feedback')}</h2>
          <p>
            <strong>{t('rating', { rating: feedback.data.rating })}</strong>
          </p>
          {feedback.data.comment ? <blockquote className="feedback-comment">{feedback.data.comment}</blockquote> : <p className="muted">{t('no_comment')}</p>}
        </section>
      ) : null}
      <div className="two-col">
        <section className="stack" aria-labelledby="booking-stops">
          <h2 id="booking-stops">{t('stops')}</h2>
          <ol className="timeline">
            {(b.stops ?? []).map((stop, index) => (
              <li key={stop.id} className="timeline-item card">
                <div className="row-between">
                  <strong>
                    {index + 1}. {stop.type === 'pickup' || stop.type === 'dropoff' ? tc(`stop.${stop.type}`) : stop.type}
                  </strong>
                  <StatusBadge status={stop.status} />
                </div>
                <div>
                  {[stop.address.street, stop.address.number].filter(Boolean).join(' ')}, {stop.address.city}
                </div>
                <div className="muted">
                  {[
                    stop.time_window ? t('window', { from: format.dateTime(stop.time_window.starts_at, zone), to: format.time(stop.time_window.ends_at, zone) }) : null,
                    stop.eta ? t('eta', { time: format.time(stop.eta, zone) }) : null,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </div>
                {stop.notes ? <div>{t('notes', { notes: stop.notes })}</div> : null}
                {/* What the recipient asked through the tracking link (decision 1788): the driver sees it on this stop. */}
                {stop.recipient_instructions && stop.recipient_instructions.kind !== 'none' ? (
                  <div>
                    <strong>{instructions.title}:</strong> {instructions.text(stop.recipient_instructions)}
                  </div>
                ) : null}
                <div>{stop.tour_id ? <Link href={`/tours/${stop.tour_id}`}>{t('on_tour', { id: stop.tour_id.slice(-8) })}</Link> : <span className="muted">{t('not_on_tour')}</span>}</div>
              </li>
            ))}
          </ol>
          <h2>{t('packages')}</h2>
          {(b.packages ?? []).length === 0 ? (
            <p className="muted">{t('no_packages')}</p>
          ) : (
            <div className="table-wrap">
              <table className="data">
                <thead>
                  <tr>
                    <th scope="col">{t('col_package')}</th>
                    <th scope="col">{t('col_status')}</th>
                    <th scope="col">{t('col_description')}</th>
                  </tr>
                </thead>
                <tbody>
                  {(b.packages ?? []).map((p) => (
                    <tr key={p.id}>
                      <td className="mono">{p.shortcode}</td>
                      <td>{t(`package.${p.status}`)}</td>
                      <td>{p.description ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
        <div className="stack">
          <BookingMessages list={sent} zone={zone} />
          <BookingTimeline events={events} zone={zone} />
        </div>
      </div>
      <Dialog open={confirming} onClose={() => setConfirming(false)} title={t('cancel')}>
        <p>{t('cancel_confirm')}</p>
        <div className="row">
          <Button variant="danger" busy={cancel.isPending} onClick={() => cancel.mutate(undefined, { onSuccess: () => setConfirming(false) })}>
            {t('cancel_yes')}
          </Button>
          <Button onClick={() => setConfirming(false)}>{t('keep')}</Button>
        </div>
      </Dialog>
    </section>
  );
}
