// A tour's stops in order as a timeline: kind, address, window, ETA (marked late when after the window, and said to be a
// straight-line estimate when no road data computed it), state,
// the failure or the proof, and "Fail" where the stop's failure_options allow any outcome.
import { useState } from 'react';
import { Link } from 'wouter';
import { common } from '../../../i18n/common.ts';
import { useStopFailureReasonLabels } from '../../../api/index.ts';
import { useFormat, useLang, useT } from '../../../i18n/index.tsx';
import { Badge, Button, StatusBadge } from '../../../ui/index.ts';
import { FailDialog } from './fail-dialog.tsx';
import { StopProof } from './stop-proof.tsx';
import { messages } from './messages.ts';
import type { Stop } from './queries.ts';

export const isLate = (stop: Stop): boolean => Boolean(stop.eta && stop.time_window && Date.parse(stop.eta) > Date.parse(stop.time_window.ends_at));

const addressLine = (stop: Stop): string => {
  const a = stop.address;
  return [[a.street, a.number].filter(Boolean).join(' '), [a.zip_code, a.city].filter(Boolean).join(' ')].filter(Boolean).join(', ');
};

export function StopTimeline({ tourId, stops, timeZone }: { tourId: string; stops: Stop[]; timeZone?: string | undefined }) {
  const t = useT(messages);
  const tc = useT(common);
  const format = useFormat();
  const [failing, setFailing] = useState<{ stop: Stop; position: number } | null>(null);
  // A failure reads as the reason's label in the page's language (its key never shows), else as the outcome's words.
  const reasons = useStopFailureReasonLabels(useLang().lang).data ?? new Map<string, string>();
  const failureText = (failure: NonNullable<Stop['failure']>) => (failure.reason_key ? (reasons.get(failure.reason_key) ?? t(`outcome.${failure.outcome}`)) : t(`outcome.${failure.outcome}`));
  const ordered = [...stops].sort((a, b) => (a.tour_position ?? 0) - (b.tour_position ?? 0));
  return (
    <>
      <ol className="timeline">
        {ordered.map((stop, index) => {
          const canFail = Object.values(stop.failure_options?.outcomes ?? {}).some((o) => o?.allowed);
          return (
            <li key={stop.id} className="timeline-item card" aria-label={`${index + 1}. ${tc(stop.type === 'pickup' ? 'stop.pickup' : 'stop.dropoff')} ${addressLine(stop)}`}>
              <div className="row-between">
                <strong>
                  {index + 1}. {stop.type === 'pickup' || stop.type === 'dropoff' ? tc(`stop.${stop.type}`) : stop.type}
                </strong>
                <span className="row">
                  {isLate(stop) ? <Badge tone="danger">{t('late')}</Badge> : null}
                  <StatusBadge status={stop.status} />
                </span>
              </div>
              <div>{addressLine(stop)}</div>
              <div className="muted">
                {stop.time_window ? t('window', { from: format.time(stop.time_window.starts_at, timeZone), to: format.time(stop.time_window.ends_at, timeZone) }) : t('no_window')}
                {stop.eta ? ` · ${t('eta', { time: format.time(stop.eta, timeZone) })}` : ''}
                {stop.completed_at ? ` · ${t('completed_at', { time: format.time(stop.completed_at, timeZone) })}` : ''}
                {stop.failed_at ? ` · ${t('failed_at', { time: format.time(stop.failed_at, timeZone) })}` : ''}
              </div>
              {/* Contract §15: the console says in words when an ETA is a straight-line estimate (decision 1702). */}
              {stop.eta && stop.travel_source === 'straight_line' ? <div className="muted eta-source">{t('eta_straight_line')}</div> : null}
              {stop.recovery_kind ? <div className="muted">{t('recovery_of', { kind: stop.recovery_kind })}</div> : null}
              {stop.failure ? <div>{t('failure', { reason: failureText(stop.failure) })}{stop.failure.note ? ` — ${stop.failure.note}` : ''}</div> : null}
              {stop.proof ? <StopProof proof={stop.proof} timeZone={timeZone} /> : null}
              <div className="row">
                {stop.booking_id ? <Link href={`/bookings/${stop.booking_id}`}>{t('booking')}</Link> : null}
                {canFail ? (
                  <Button small variant="danger" onClick={() => setFailing({ stop, position: index })}>
                    {t('fail')}
                  </Button>
                ) : null}
              </div>
            </li>
          );
        })}
      </ol>
      {failing ? <FailDialog tourId={tourId} stop={failing.stop} position={failing.position} onClose={() => setFailing(null)} /> : null}
    </>
  );
}
