// Today: what needs a dispatcher's attention now — waiting bookings, tours without a driver or whose claim window runs
// out, tours running late, failed stops awaiting a decision, paused tip distributions — each item linking to its page.
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import type { User } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useFormat, useT } from '../../../i18n/index.tsx';
import { ErrorBanner, Loading, PageHead, StatusBadge, useAreaZones, useTourName } from '../../../ui/index.ts';
import { messages } from './messages.ts';
import { claimRunningOut, isLate, useCompletedBookings, useToursIn, useWaitingBookings, type Booking, type Stop, type Tour } from './queries.ts';

/** How many items each section lists; its count says how many there are. */
const LISTED = 10;

interface Item {
  key: string;
  href: string;
  name: string;
  detail: ReactNode;
  status?: string;
}

function Section({ id, title, count, items, action, pending, error }: { id: string; title: string; count: string; items: Item[]; action?: ReactNode; pending: boolean; error: unknown }) {
  const t = useT(messages);
  const tc = useT(common);
  return (
    <section className="card today-section" aria-labelledby={`${id}-title`} data-count={items.length}>
      <div className="row-between">
        <h2 id={`${id}-title`}>
          {title} <span className="today-count">({pending ? '…' : count})</span>
        </h2>
        {action}
      </div>
      {error ? <ErrorBanner error={error} /> : null}
      {pending ? <Loading label={tc('loading')} /> : null}
      {!pending && !error && !items.length ? <p className="muted">{t('nothing')}</p> : null}
      {items.length ? (
        <ul className="plain-list today-list">
          {items.slice(0, LISTED).map((item) => (
            <li key={item.key}>
              <Link href={item.href}>{item.name}</Link>
              {item.status ? <StatusBadge status={item.status} /> : null}
              <span className="muted">{item.detail}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {items.length > LISTED ? <p className="muted">{t('shown_first', { count: LISTED })}</p> : null}
    </section>
  );
}

const shortId = (id: string) => id.slice(-6);
const bookingName = (b: Booking) => b.external_id ?? shortId(b.id);

export function TodayPage({ user }: { user: User }) {
  const t = useT(messages);
  const tc = useT(common);
  const format = useFormat();
  const nameOf = useTourName();
  const waiting = useWaitingBookings();
  const unclaimed = useToursIn(['scheduled', 'pickable'], 'compact');
  const claimed = useToursIn(['claimed'], 'compact');
  const enRoute = useToursIn(['en_route'], 'full');
  const completed = useCompletedBookings();
  const zones = useAreaZones();
  const zone = zones.zoneOf;
  // Claim windows age while the page is open: re-evaluated every half minute.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  void user;

  const count = (n: number, hasMore: boolean | undefined) => (hasMore ? t('more', { count: format.number(n) }) : format.number(n));
  const stopType = (stop: Stop) => (stop.type === 'pickup' || stop.type === 'dropoff' ? tc(`stop.${stop.type}`) : stop.type);

  const waitingBookings = waiting.data?.bookings ?? [];
  const waitingItems: Item[] = waitingBookings.map((b) => ({
    key: b.id,
    href: `/bookings/${b.id}`,
    name: t('booking', { name: bookingName(b) }),
    status: b.status,
    detail: t('created', { at: format.dateTime(b.created_at, zone(b.service_area_id)) }),
  }));
  // The tour's name a person reads (decision 1603), with its short reference for two of one name (decision 1681).
  const tourItem = (tour: Tour, detail: ReactNode): Item => ({ key: tour.id, href: `/tours/${tour.id}`, name: t('tour', { name: `${nameOf(tour)} · ${shortId(tour.id)}` }), status: tour.status, detail });
  const unclaimedItems = (unclaimed.data?.tours ?? []).map((tour) => tourItem(tour, format.dateTime(tour.scheduled_at, zone(tour.service_area_id))));
  const endingItems = (claimed.data?.tours ?? [])
    .filter((tour) => claimRunningOut(tour, now))
    .map((tour) => tourItem(tour, t(Date.parse(tour.claim_expires_at!) > now ? 'claim_ends' : 'claim_ended', { at: format.time(tour.claim_expires_at, zone(tour.service_area_id)) })));
  const lateItems = (enRoute.data?.tours ?? []).flatMap((tour) => {
    const late = (tour.stops ?? []).filter(isLate);
    if (!late.length) return [];
    const z = zone(tour.service_area_id);
    return [tourItem(tour, late.map((s) => t('late_stop', { type: stopType(s), eta: format.time(s.eta, z), end: format.time(s.time_window!.ends_at, z) })).join('; '))];
  });
  const failedItems = waitingBookings.flatMap((b) =>
    (b.stops ?? [])
      .filter((s) => s.status === 'failed')
      .map((s) => ({ key: s.id, href: `/bookings/${b.id}`, name: t('booking', { name: bookingName(b) }), status: s.status, detail: t('failed_stop', { type: stopType(s), at: format.dateTime(s.failed_at, zone(b.service_area_id)) }) })),
  );
  const pausedItems = (completed.data?.bookings ?? [])
    .filter((b) => b.tip_distribution.status === 'paused' && b.tip_distribution.tour_id)
    .map((b) => ({
      key: b.id,
      href: `/tours/${b.tip_distribution.tour_id}`,
      name: t('tour', { name: shortId(b.tip_distribution.tour_id!) }),
      detail: t('paused_reason', { name: bookingName(b), reason: b.tip_distribution.reason === 'currency_mismatch' ? t('reason.currency_mismatch') : b.tip_distribution.reason }),
    }));

  return (
    <section className="stack">
      <PageHead title={t('title')} timeZones={zones.all} />
      <div className="today-grid">
        <Section
          id="waiting"
          title={t('waiting')}
          count={count(waitingItems.length, waiting.data?.meta.has_more)}
          items={waitingItems}
         
          pending={waiting.isPending}
          error={waiting.error}
          action={
            <span className="row">
              <Link href="/bookings?status=to_be_dispatched">{t('open')}</Link>
              {waitingItems.length ? <Link href="/plan">{t('plan')}</Link> : null}
            </span>
          }
        />
        <Section id="failed" title={t('failed')} count={count(failedItems.length, false)} items={failedItems} pending={waiting.isPending} error={null} />
        <Section id="late" title={t('late')} count={count(lateItems.length, false)} items={lateItems} pending={enRoute.isPending} error={enRoute.error} />
        <Section id="claim-ending" title={t('claim_ending')} count={count(endingItems.length, false)} items={endingItems} pending={claimed.isPending} error={claimed.error} />
        <Section id="unclaimed" title={t('unclaimed')} count={count(unclaimedItems.length, unclaimed.data?.meta.has_more)} items={unclaimedItems} pending={unclaimed.isPending} error={unclaimed.error} />
        <Section id="paused-tips" title={t('paused_tips')} count={count(pausedItems.length, false)} items={pausedItems} pending={completed.isPending} error={completed.error} />
      </div>
    </section>
  );
}
