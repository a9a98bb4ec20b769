// The one-time link's page (docs/console.md "Invitations and the first sign-in"; decision 1602): an invited user, or
// the bootstrap admin, sets a password with the link's token and is signed in with it. The token is in the address's
// fragment (never sent to a server or a referrer) and is taken out of the address bar at once.
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call, useSignIn } from '../../../api/index.ts';
import { useT } from '../../../i18n/index.tsx';
import { Banner, Button, ErrorBanner, errorsAt, TextField } from '../../../ui/index.ts';
import { messages } from './messages.ts';

/** Read once: the fragment is cleared after the first read, so a reload or a shared screen shows no token. */
let tokenOfThisPage: string | null = null;
function takeToken(): string | null {
  if (tokenOfThisPage === null) {
    const token = new URLSearchParams(window.location.hash.replace(/^#/, '')).get('token');
    if (token) {
      tokenOfThisPage = token;
      history.replaceState(null, '', window.location.pathname);
    }
  }
  return tokenOfThisPage;
}

export function WelcomePage({ onDone }: { onDone: () => void }) {
  const t = useT(messages);
  const [token] = useState(takeToken);
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const signIn = useSignIn();
  const accept = useMutation({
    mutationFn: async () => {
      const { invitation } = await call(api.POST('/api/invitations/accept', { body: { invitation: { token: token ?? '', password } } }));
      await signIn.mutateAsync({ email: invitation.email, password, tenant_id: invitation.tenant_id });
      return invitation;
    },
    onSuccess: () => onDone(),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMismatch(password !== repeat);
    if (password === repeat) accept.mutate();
  };
  return (
    <main className="signin" id="main">
      <form className="card stack" onSubmit={submit}>
        <h1>{t('title')}</h1>
        {token ? (
          <>
            <p>{t('intro')}</p>
            <ErrorBanner error={accept.error} shownPointers={['/invitation/password']} />
            <TextField label={t('password')} hint={t('password_hint')} type="password" autoComplete="new-password" required minLength={8} maxLength={256} value={password} onChange={(e) => setPassword(e.target.value)} errors={errorsAt(accept.error, '/invitation/password')} />
            <TextField label={t('repeat')} type="password" autoComplete="new-password" required value={repeat} onChange={(e) => setRepeat(e.target.value)} errors={mismatch ? [t('mismatch')] : undefined} />
            <div>
              <Button type="submit" variant="primary" busy={accept.isPending}>
                {t('submit')}
              </Button>
            </div>
          </>
        ) : (
          <>
            <Banner tone="warn">{t('no_token')}</Banner>
            <a href="/console">{t('sign_in')}</a>
          </>
        )}
      </form>
    </main>
  );
}
