// Settings: a sub-navigation of sections, each a route below /console/settings. Admins get every section; a manager
// gets only what it may read or do — users, organizations, services and recipient e-mails read-only, places to create
// and edit — and never a link to what it may not (decision 1010).
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import type { User } from '../../../api/index.ts';
import { useT } from '../../../i18n/index.tsx';
import { deviceZone, PageHead } from '../../../ui/index.ts';
import { ApiKeysSection } from './api-keys.tsx';
import { messages } from './messages.ts';
import { OrganizationsSection } from './organizations.tsx';
import { PlacesSection } from './places.tsx';
import { RecipientEmailsSection } from './recipient-emails.tsx';
import { SenderSection } from './sender.tsx';
import { ServiceAreasSection } from './service-areas.tsx';
import { ServicesSection } from './services.tsx';
import { UsersSection } from './users.tsx';
import { WebhookPage } from './webhook-page.tsx';
import { WebhooksSection } from './webhooks.tsx';

type Section = 'webhooks' | 'users' | 'organizations' | 'api_keys' | 'services' | 'places' | 'service_areas' | 'recipient_emails' | 'sender';

const ADMIN: Section[] = ['webhooks', 'users', 'organizations', 'api_keys', 'services', 'places', 'service_areas', 'recipient_emails', 'sender'];
const MANAGER: Section[] = ['users', 'organizations', 'services', 'places', 'recipient_emails'];

export const sectionsFor = (user: User): Section[] => (user.role === 'admin' ? ADMIN : MANAGER);
const hrefOf = (section: Section) => `/${section.replace('_', '-')}`;

function SubNav({ sections }: { sections: Section[] }) {
  const t = useT(messages);
  const [location] = useLocation();
  return (
    <nav className="subnav" aria-label={t('sections')}>
      {sections.map((section) => {
        const href = hrefOf(section);
        const current = location === href || location.startsWith(`${href}/`);
        return (
          <Link key={section} href={href} aria-current={current ? 'page' : undefined}>
            {t(section)}
          </Link>
        );
      })}
    </nav>
  );
}

/** Mounted under /settings (nested): the routes below are relative to it. */
export function SettingsPage({ user }: { user: User }) {
  const t = useT(messages);
  const sections = sectionsFor(user);
  const has = (section: Section) => sections.includes(section);
  return (
    <section className="stack" aria-labelledby="settings-title">
      <PageHead title={<span id="settings-title">{t('title')}</span>} timeZones={[deviceZone()]} deviceZone />
      <SubNav sections={sections} />
      <Switch>
        {has('webhooks') ? <Route path="/webhooks">{() => <WebhooksSection />}</Route> : null}
        {has('webhooks') ? <Route path="/webhooks/:id">{(params) => <WebhookPage id={params.id} />}</Route> : null}
        <Route path="/users">{() => <UsersSection user={user} />}</Route>
        <Route path="/organizations">{() => <OrganizationsSection user={user} />}</Route>
        {has('api_keys') ? <Route path="/api-keys">{() => <ApiKeysSection />}</Route> : null}
        <Route path="/services">{() => <ServicesSection user={user} />}</Route>
        <Route path="/places">{() => <PlacesSection user={user} />}</Route>
        {has('service_areas') ? <Route path="/service-areas">{() => <ServiceAreasSection />}</Route> : null}
        <Route path="/recipient-emails">{() => <RecipientEmailsSection user={user} />}</Route>
        {has('sender') ? <Route path="/sender">{() => <SenderSection />}</Route> : null}
        <Route>{() => <Redirect to={hrefOf(sections[0] ?? 'users')} replace />}</Route>
      </Switch>
    </section>
  );
}
