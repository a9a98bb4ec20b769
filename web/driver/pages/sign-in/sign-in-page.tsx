// Sign-in: e-mail and password start the cookie session (api-guide "Browser sessions"), which lasts across app
// restarts until the driver signs out or it is revoked.
import { useState, type FormEvent } from 'react';
import { isApiError, useSignIn, useSignOut } from '../../../api/index.ts';
import { useT } from '../../../i18n/index.tsx';
import { Banner, Button, ErrorBanner, SelectField, TextField, errorsAt } from '../../../ui/index.ts';
import icon from '../../../public/icon.svg';
import { messages } from './messages.ts';

export function SignInPage() {
  const t = useT(messages);
  const signIn = useSignIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [tenantId, setTenantId] = useState('');
  const error = signIn.error;
  const tenantIds = isApiError(error) && error.code === 'tenant_required' && Array.isArray(error.problem.tenant_ids) ? (error.problem.tenant_ids as string[]) : [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate({ email, password, ...(tenantId ? { tenant_id: tenantId } : {}) });
  };

  return (
    <main className="drv-signin">
      <form className="drv-card" onSubmit={submit} noValidate>
        <div className="brand">
          <img src={icon} alt="" width="40" height="40" />
          <h1>{t('title')}</h1>
        </div>
        {isApiError(error) && error.status === 401 ? <Banner tone="error">{t('wrong')}</Banner> : null}
        {error && !(isApiError(error) && (error.status === 401 || error.code === 'tenant_required')) ? <ErrorBanner error={error} shownPointers={['/user/email', '/user/password']} /> : null}
        <TextField label={t('email')} type="email" name="email" autoComplete="username" inputMode="email" required value={email} onChange={(e) => setEmail(e.target.value)} errors={errorsAt(error, '/user/email')} />
        <TextField label={t('password')} type="password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} errors={errorsAt(error, '/user/password')} />
        {tenantIds.length ? (
          <SelectField label={t('tenant')} hint={t('tenant_hint')} value={tenantId} onChange={(e) => setTenantId(e.target.value)}>
            <option value="" />
            {tenantIds.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </SelectField>
        ) : null}
        <Button type="submit" variant="primary" busy={signIn.isPending}>
          {t('sign_in')}
        </Button>
      </form>
    </main>
  );
}

/** Admins, managers and customers who sign in here are sent to their own surface. */
export function NotADriver() {
  const t = useT(messages);
  const signOut = useSignOut();
  return (
    <main className="drv-signin">
      <div className="drv-card">
        <p>
          {t('not_for_role')} <a href="/console">{t('console')}</a>
        </p>
        <Button onClick={() => signOut.mutate()}>{t('sign_out')}</Button>
      </div>
    </main>
  );
}
