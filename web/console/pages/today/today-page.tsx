// Today: what needs a dispatcher's attention now, each count linking to the list behind it.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, call, type User } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useFormat, useT } from '../../../i18n/index.tsx';
import { ErrorBanner, Loading, PageHead } from '../../../ui/index.ts';
import { messages } from './messages.ts';

const COUNT_LIMIT = 100;

function useWaitingBookings() {
  return useQuery({
    queryKey: ['bookings', 'waiting'],
    refetchInterval: 30_000,
    queryFn: () =>
      call(api.GET('/api/hailing/bookings', { params: { query: { limit: COUNT_LIMIT, view: 'compact', filters: { status: ['to_be_dispatched', 'partially_dispatched'] } } } })),
  });
}

export function TodayPage({ user }: { user: User }) {
  const t = useT(messages);
  const tc = useT(common);
  const format = useFormat();
  const waiting = useWaitingBookings();
  void user;
  const count = (data: { meta: { has_more: boolean } } & Record<string, unknown>, items: unknown[]) =>
    data.meta.has_more ? t('more', { count: format.number(items.length) }) : format.number(items.length);
  return (
    <section className="stack">
      <PageHead title={t('title')} />
      {waiting.isError ? <ErrorBanner error={waiting.error} /> : null}
      {waiting.isPending ? <Loading label={tc('loading')} /> : null}
      <div className="grid-cards">
        {waiting.data ? (
          <div className="card stat">
            <span className="value">{count(waiting.data, waiting.data.bookings)}</span>
            <span>{t('waiting')}</span>
            <Link href="/bookings?status=to_be_dispatched">{t('open')}</Link>
          </div>
        ) : null}
      </div>
    </section>
  );
}
