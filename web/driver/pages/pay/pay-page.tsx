// The driver's pay: each of its tours' compensation (base, bonuses, tips, total), newest tour first.
import type { User } from '../../../api/index.ts';
import { useFormat, useT } from '../../../i18n/index.tsx';
import { deviceZone, ErrorBanner, Loading, TimesNote } from '../../../ui/index.ts';
import { useCompensations, useRecentTours } from '../../data.ts';
import { messages as app } from '../../messages.ts';
import { messages as toursMessages } from '../tours/messages.ts';
import { messages } from './messages.ts';

export function PayPage({ user }: { user: User }) {
  const t = useT(messages);
  const tApp = useT(app);
  const tTours = useT(toursMessages);
  const f = useFormat();
  const tours = useRecentTours();
  const mine = (tours.data ?? []).filter((tour) => tour.driver_id === user.id);
  const compensations = useCompensations(mine.map((tour) => tour.id));
  if (!tours.data) return tours.isError ? <ErrorBanner error={tours.error} /> : <Loading label={tApp('loading')} />;
  return (
    <div className="stack">
      <h1>{t('title')}</h1>
      <TimesNote zones={[deviceZone()]} device />
      {mine.length ? (
        <ul className="plain-list stack">
          {mine.map((tour, index) => {
            const c = compensations[index]?.data;
            const bonuses = c ? c.breakdown.bonuses.reduce((sum, b) => sum + b.amount, 0) : 0;
            return (
              <li key={tour.id} className="drv-card">
                <div className="row-between">
                  <h2>{f.dateTime(tour.scheduled_at ?? tour.created_at)}</h2>
                  <span className={`drv-pill drv-pill-${tour.status}`}>{tTours(`status.${tour.status}`)}</span>
                </div>
                {c ? (
                  <dl className="drv-facts drv-pay">
                    <dt>{t('base')}</dt>
                    <dd>{f.money(c.breakdown.base_earnings.amount, c.currency)}</dd>
                    <dt>{t('bonuses')}</dt>
                    <dd>
                      {f.money(bonuses, c.currency)}
                      {c.breakdown.bonuses.length ? <span className="muted"> ({c.breakdown.bonuses.map((b) => b.label ?? b.key).join(', ')})</span> : null}
                    </dd>
                    <dt>{t('tips')}</dt>
                    <dd>
                      {f.money(c.breakdown.tips.amount, c.currency)}
                      {c.tip_distribution.status === 'paused' ? <span className="muted"> ({t('paused')})</span> : null}
                    </dd>
                    <dt className="drv-strong">{t('total')}</dt>
                    <dd className="drv-strong" data-testid={`pay-total-${tour.id}`}>
                      {f.money(c.total_amount, c.currency)}
                    </dd>
                  </dl>
                ) : compensations[index]?.isError ? (
                  <p className="muted">{t('unavailable')}</p>
                ) : (
                  <Loading label={tApp('loading')} />
                )}
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="muted">{t('none')}</p>
      )}
    </div>
  );
}
