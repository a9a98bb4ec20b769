// Sign-in: the shared form (web/ui) under the console's title; drivers and customers are sent to their own surface.
import { useSignOut, type User } from '../../../api/index.ts';
import { useT } from '../../../i18n/index.tsx';
import { Button, SignInForm } from '../../../ui/index.ts';
import { messages } from './messages.ts';

export function SignInPage() {
  const t = useT(messages);
  return (
    <main className="signin">
      <SignInForm title={t('title')} />
    </main>
  );
}

/** Drivers and customers who sign in here are told where to go instead, and can sign out. */
export function NotForThisRole({ user }: { user: User }) {
  const t = useT(messages);
  const signOut = useSignOut();
  return (
    <main className="signin">
      <div className="card">
        {user.role === 'driver' ? (
          <p>
            {t('not_for_driver')} <a href="/driver">{t('driver_app')}</a>
          </p>
        ) : (
          <p>{t('not_for_customer')}</p>
        )}
        <Button onClick={() => signOut.mutate()}>{t('sign_out')}</Button>
      </div>
    </main>
  );
}
