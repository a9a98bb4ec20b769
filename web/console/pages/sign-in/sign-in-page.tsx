// Sign-in: e-mail and password start a cookie session (api-guide "Browser sessions"); several tenants → choose one.
import { useState, type FormEvent } from 'react';
import { isApiError, useSignIn, useSignOut, type User } from '../../../api/index.ts';
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
    <main className="signin">
      <form className="card" onSubmit={submit} noValidate>
        <div className="brand">
          <img src={icon} alt="" />
          <h1>{t('title')}</h1>
        </div>
        {isApiError(error) && error.status === 401 ? <Banner tone="error">{t('wrong')}</Banner> : null}
        {error && !(isApiError(error) && (error.status === 401 || error.code === 'tenant_required')) ? (
          <ErrorBanner error={error} shownPointers={['/user/email', '/user/password']} />
        ) : null}
        <TextField label={t('email')} type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} errors={errorsAt(error, '/user/email')} />
        <TextField
          label={t('password')}
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          errors={errorsAt(error, '/user/password')}
        />
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
