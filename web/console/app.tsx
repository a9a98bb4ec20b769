// Who may use the console decides what renders: nobody signed in → sign-in; drivers and customers → a pointer to
// their own app; admins and managers → the shell with the pages (a route per page, each page in pages/<page>/).
import { lazy, Suspense, useEffect, useState } from 'react';
import { Route, Router, Switch } from 'wouter';
import { setApiLanguage, useSession } from '../api/index.ts';
import { useLang } from '../i18n/index.tsx';
import { ErrorBanner, Loading } from '../ui/index.ts';
import { common } from '../i18n/common.ts';
import { useT } from '../i18n/index.tsx';
import { AnalyticsPage } from './pages/analytics/analytics-page.tsx';
import { BookingPage } from './pages/booking/booking-page.tsx';
import { BookingsPage } from './pages/bookings/bookings-page.tsx';
import { ImportPage } from './pages/bookings/import/import-page.tsx';
import { NewBookingPage } from './pages/bookings/new/new-booking-page.tsx';
import { NotForThisRole, SignInPage } from './pages/sign-in/sign-in-page.tsx';
import { MapPage } from './pages/map/map-page.tsx';
import { PlanPage } from './pages/plan/plan-page.tsx';
import { NewReportPage } from './pages/reports/new-report-page.tsx';
import { ReportPage } from './pages/reports/report-page.tsx';
import { ReportsPage } from './pages/reports/reports-page.tsx';
import { SettingsPage } from './pages/settings/settings-page.tsx';
import { ShiftsPage } from './pages/shifts/shifts-page.tsx';
import { TodayPage } from './pages/today/today-page.tsx';
import { TourPage } from './pages/tour/tour-page.tsx';
import { WelcomePage } from './pages/welcome/welcome-page.tsx';
import { ToursPage } from './pages/tours/tours-page.tsx';
import { NotFoundPage, Shell } from './shell/shell.tsx';

// The dispatch board brings react-aria's drag and drop: loaded with its page, not with the console's first page.
const DispatchPage = lazy(() => import('./pages/dispatch/dispatch-page.tsx'));

export function App() {
  const { lang } = useLang();
  const t = useT(common);
  setApiLanguage(lang);
  useEffect(() => setApiLanguage(lang), [lang]);
  const session = useSession();
  // A one-time link's page comes before the session: whoever opens it is about to set a password (decision 1602).
  const [welcome, setWelcome] = useState(() => window.location.pathname === '/console/welcome');

  if (welcome) {
    return (
      <WelcomePage
        onDone={() => {
          history.replaceState(null, '', '/console');
          setWelcome(false);
        }}
      />
    );
  }
  if (session.isPending) return <Loading label={t('loading')} />;
  if (session.isError) return <ErrorBanner error={session.error} />;
  const user = session.data;
  if (!user) return <SignInPage />;
  if (user.role !== 'admin' && user.role !== 'manager') return <NotForThisRole user={user} />;

  return (
    <Router base="/console">
      <Shell user={user}>
        <Switch>
          <Route path="/">{() => <TodayPage user={user} />}</Route>
          <Route path="/bookings">{() => <BookingsPage />}</Route>
          <Route path="/bookings/new">{() => <NewBookingPage />}</Route>
          <Route path="/bookings/import">{() => <ImportPage />}</Route>
          <Route path="/bookings/:id">{(params) => <BookingPage id={params.id} />}</Route>
          <Route path="/tours">{() => <ToursPage />}</Route>
          <Route path="/tours/:id">{(params) => <TourPage id={params.id} />}</Route>
          <Route path="/dispatch">
            {() => (
              <Suspense fallback={<Loading label={t('loading')} />}>
                <DispatchPage />
              </Suspense>
            )}
          </Route>
          <Route path="/plan">{() => <PlanPage user={user} />}</Route>
          <Route path="/shifts">{() => <ShiftsPage />}</Route>
          <Route path="/map">{() => <MapPage user={user} />}</Route>
          <Route path="/analytics">{() => <AnalyticsPage />}</Route>
          <Route path="/reports">{() => <ReportsPage />}</Route>
          <Route path="/reports/new">{() => <NewReportPage user={user} />}</Route>
          <Route path="/reports/:id">{(params) => <ReportPage id={params.id} user={user} />}</Route>
          <Route path="/settings" nest>
            {() => <SettingsPage user={user} />}
          </Route>
          <Route>{() => <NotFoundPage />}</Route>
        </Switch>
      </Shell>
    </Router>
  );
}
