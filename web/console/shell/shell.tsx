// The frame around every page: navigation, language, the signed-in user, sign-out and the connection banner.
import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { useConnection, useSignOut, type User } from '../../api/index.ts';
import { common } from '../../i18n/common.ts';
import { LANGS, useLang, useT, type Lang } from '../../i18n/index.tsx';
import { Banner, Button, ErrorBanner } from '../../ui/index.ts';
import icon from '../../public/icon.svg';
import { messages } from './messages.ts';

type NavKey = 'today' | 'bookings' | 'dispatch' | 'tours' | 'plan' | 'shifts' | 'map' | 'analytics' | 'reports' | 'settings';

/** The pages in the navigation, in order; `href` is below /console. */
export const NAV: { key: NavKey; href: string }[] = [
  { key: 'today', href: '/' },
  { key: 'bookings', href: '/bookings' },
  { key: 'dispatch', href: '/dispatch' },
  { key: 'tours', href: '/tours' },
  { key: 'plan', href: '/plan' },
  { key: 'shifts', href: '/shifts' },
  { key: 'map', href: '/map' },
  { key: 'analytics', href: '/analytics' },
  { key: 'reports', href: '/reports' },
  { key: 'settings', href: '/settings' },
];

function NavLink({ href, children }: { href: string; children: ReactNode }) {
  const [location] = useLocation();
  const current = href === '/' ? location === '/' : location === href || location.startsWith(`${href}/`);
  return (
    <Link href={href} aria-current={current ? 'page' : undefined}>
      {children}
    </Link>
  );
}

export function Shell({ user, children }: { user: User; children: ReactNode }) {
  const t = useT(messages);
  const tc = useT(common);
  const { lang, setLang } = useLang();
  const online = useConnection();
  const signOut = useSignOut();
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t('skip')}
      </a>
      <nav className="shell-nav" aria-label={t('navigation')}>
        <div className="brand">
          <img src={icon} alt="" /> Tourbook
        </div>
        {NAV.map((item) => (
          <NavLink key={item.key} href={item.href}>
            {t(item.key)}
          </NavLink>
        ))}
        <div className="nav-foot">
          <span>{t('signed_in_as', { name: user.name, role: t(`role.${user.role as 'admin' | 'manager'}`) })}</span>
          <label>
            {t('language')}{' '}
            <select value={lang} onChange={(event) => setLang(event.target.value as Lang)}>
              {LANGS.map((l) => (
                <option key={l} value={l}>
                  {l === 'en' ? 'English' : 'Deutsch'}
                </option>
              ))}
            </select>
          </label>
          <Button small busy={signOut.isPending} onClick={() => signOut.mutate()}>
            {t('sign_out')}
          </Button>
          <a href="/docs">{t('api_reference')}</a>
        </div>
      </nav>
      <main id="main" className="shell-main" tabIndex={-1}>
        {!online ? (
          <div className="connection-banner">
            <Banner tone="warn" live>
              {tc('connection_lost')}
            </Banner>
          </div>
        ) : null}
        {signOut.isError ? <ErrorBanner error={signOut.error} /> : null}
        {children}
      </main>
    </div>
  );
}

export function NotFoundPage() {
  const t = useT(messages);
  return (
    <section className="stack">
      <h1>{t('page_not_found')}</h1>
      <p>
        <Link href="/">{t('back_to_today')}</Link>
      </p>
    </section>
  );
}
