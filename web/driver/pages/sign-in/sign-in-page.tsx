// Sign-in: the shared form (web/ui) under the driver app's title, at phone size (driver.css). The cookie session lasts
// across app restarts until the driver signs out or it is revoked.
import { useSignOut } from '../../../api/index.ts';
import { useT } from '../../../i18n/index.tsx';
import { Button, SignInForm } from '../../../ui/index.ts';
import { messages } from './messages.ts';

export function SignInPage() {
  const t = useT(messages);
  return (
    <main className="signin drv-signin">
      <SignInForm title={t('title')} />
    </main>
  );
}

/** Admins, managers and customers who sign in here are sent to their own surface. */
export function NotADriver() {
  const t = useT(messages);
  const signOut = useSignOut();
  return (
    <main className="signin drv-signin">
      <div className="card">
        <p>
          {t('not_for_role')} <a href="/console">{t('console')}</a>
        </p>
        <Button onClick={() => signOut.mutate()}>{t('sign_out')}</Button>
      </div>
    </main>
  );
}
