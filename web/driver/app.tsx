// Who is signed in decides what renders: nobody → sign-in; a driver → the app (tours, a tour, pay); anyone else → a
// pointer to the console. The last signed-in driver is remembered so the app opens without a connection.
import { useEffect } from 'react';
import { Route, Router, Switch } from 'wouter';
import { setApiLanguage } from '../api/index.ts';
import { useLang, useT } from '../i18n/index.tsx';
import { ErrorBanner, Loading } from '../ui/index.ts';
import { useDriverSession } from './data.ts';
import { messages } from './messages.ts';
import { PayPage } from './pages/pay/pay-page.tsx';
import { NotADriver, SignInPage } from './pages/sign-in/sign-in-page.tsx';
import { TourPage } from './pages/tour/tour-page.tsx';
import { ToursPage } from './pages/tours/tours-page.tsx';
import { PositionReporter } from './positions/position-reporter.tsx';
import { Shell } from './shell/shell.tsx';

export function App() {
  const { lang } = useLang();
  const t = useT(messages);
  setApiLanguage(lang);
  useEffect(() => setApiLanguage(lang), [lang]);
  const session = useDriverSession();

  if (session.pending) return <Loading label={t('loading')} />;
  if (session.error) return <ErrorBanner error={session.error} />;
  const user = session.user;
  if (!user) return <SignInPage />;
  if (user.role !== 'driver') return <NotADriver />;

  return (
    <Router base="/driver">
      <PositionReporter driverId={user.id} />
      <Shell user={user}>
        <Switch>
          <Route path="/">{() => <ToursPage user={user} />}</Route>
          <Route path="/tours/:id">{(params) => <TourPage id={params.id} user={user} />}</Route>
          <Route path="/pay">{() => <PayPage user={user} />}</Route>
          <Route>{() => <ToursPage user={user} />}</Route>
        </Switch>
      </Shell>
    </Router>
  );
}
