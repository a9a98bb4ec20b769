// The frame: the app's name, the connection and outbox state, refusals the driver must read, and a bottom bar with
// the two places (Tours, Pay) within thumb reach.
import type { ReactNode } from 'react';
import { Link, useRoute } from 'wouter';
import { useConnection, useSignOut, type User } from '../../api/index.ts';
import { LANGS, useLang, useT, type Lang } from '../../i18n/index.tsx';
import { Banner, Button } from '../../ui/index.ts';
import { forgetCachedData } from '../data.ts';
import { messages } from '../messages.ts';
import { outbox, useNotKept, useOutbox, type NotKept, type QueuedAction } from '../queue/index.ts';

/** Refusals that mean the tour is no longer the driver's: the words say to call the dispatcher. */
const GONE = new Set(['not_found', 'forbidden', 'invalid_transition', 'tour_not_tracked']);

/**
 * The tour waits for a driver and this driver is not it any more (the dispatcher unassigned it): a stop step answers
 * 409 not_tour_driver, failing a stop 422 with reason_key not_permitted (decision 1204).
 */
const takenOff = (problem: NonNullable<QueuedAction['problem']>): boolean =>
  problem.error_code === 'not_tour_driver' || (problem.error_code === 'outcome_not_available' && problem.reason_key === 'not_permitted');

function Refusal({ action }: { action: QueuedAction }) {
  const t = useT(messages);
  const problem = action.problem!;
  const params = { action: t(`action.${action.kind}`), detail: problem.detail };
  const words = takenOff(problem) ? t('refused_taken_off', params) : t(GONE.has(problem.error_code) ? 'refused_gone' : 'refused_help', params);
  return (
    <Banner tone="error">
      <strong>{t('refused_title')}</strong>
      <p>{words}</p>
      <Button onClick={() => void outbox.dismiss(action.key)}>{t('dismiss')}</Button>
    </Banner>
  );
}

function NotKeptNotice({ notice }: { notice: NotKept }) {
  const t = useT(messages);
  return (
    <Banner tone="error">
      <strong>{t('not_kept_title')}</strong>
      <p>{t('not_kept_help', { action: t(`action.${notice.kind}`), detail: notice.message })}</p>
      <Button onClick={() => outbox.dismissNotKept(notice.id)}>{t('dismiss')}</Button>
    </Banner>
  );
}

function NavLink({ href, children }: { href: string; children: ReactNode }) {
  const [active] = useRoute(href === '/' ? '/' : `${href}/*?`);
  return (
    <Link href={href} className="drv-nav-link" aria-current={active ? 'page' : undefined}>
      {children}
    </Link>
  );
}

export function Shell({ user, children }: { user: User; children: ReactNode }) {
  const t = useT(messages);
  const { lang, setLang } = useLang();
  const online = useConnection();
  const actions = useOutbox();
  const signOut = useSignOut();
  const waiting = actions.filter((a) => a.state === 'waiting').length;
  const refused = actions.filter((a) => a.state === 'refused');
  const notKept = useNotKept();

  return (
    <div className="drv-app">
      <header className="drv-top">
        <span className="drv-title">{t('app_name')}</span>
        <span className="drv-user" title={user.name}>
          {user.name}
        </span>
        <label className="drv-lang">
          <span className="visually-hidden">{t('language')}</span>
          <select value={lang} onChange={(e) => setLang(e.target.value as Lang)}>
            {LANGS.map((l) => (
              <option key={l} value={l}>
                {l.toUpperCase()}
              </option>
            ))}
          </select>
        </label>
        <Button
          variant="ghost"
          onClick={() =>
            signOut.mutate(undefined, {
              onSettled: forgetCachedData,
            })
          }
        >
          {t('sign_out')}
        </Button>
      </header>
      <div className="drv-status" role="status">
        {!online ? <Banner tone="warn">{t('offline')}</Banner> : null}
        {waiting ? <p className="drv-waiting">{t('waiting_count', { count: waiting })}</p> : null}
      </div>
      {refused.length ? (
        <section className="drv-refusals" aria-label={t('refused_title')}>
          {refused.map((action) => (
            <Refusal key={action.key} action={action} />
          ))}
        </section>
      ) : null}
      {notKept.length ? (
        <section className="drv-refusals" aria-label={t('not_kept_title')}>
          {notKept.map((notice) => (
            <NotKeptNotice key={notice.id} notice={notice} />
          ))}
        </section>
      ) : null}
      <main className="drv-main">{children}</main>
      <nav className="drv-nav" aria-label={t('app_name')}>
        <NavLink href="/">{t('tours')}</NavLink>
        <NavLink href="/pay">{t('pay')}</NavLink>
      </nav>
    </div>
  );
}
