// One sign-in form for the console and the driver app: e-mail and password start the cookie session (api-guide
// "Browser sessions"); an e-mail of several tenants chooses one. The page around it says what it signs in to.
import { useState, type FormEvent } from 'react';
import { isApiError, useSignIn } from '../api/index.ts';
import { useT } from '../i18n/index.tsx';
import icon from '../public/icon.svg';
import { Banner, Button, SelectField, TextField } from './components.tsx';
import { ErrorBanner, errorsAt } from './errors.tsx';
import { messages } from './sign-in-messages.ts';

export function SignInForm({ title }: { title: string }) {
  const t = useT(messages);
  const signIn = useSignIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [tenantId, setTenantId] = useState('');
  const error = signIn.error;
  const wrongCredentials = isApiError(error) && error.status === 401;
  const tenantRequired = isApiError(error) && error.code === 'tenant_required';
  const tenantIds = tenantRequired && Array.isArray(error.problem.tenant_ids) ? (error.problem.tenant_ids as string[]) : [];
  /** The two credentials: alike but for their type and what the browser fills in; each names its field's pointer. */
  const credentials = [
    { name: 'email', type: 'email', autoComplete: 'username', inputMode: 'email', value: email, set: setEmail },
    { name: 'password', type: 'password', autoComplete: 'current-password', value: password, set: setPassword },
  ] as const;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate({ email, password, ...(tenantId ? { tenant_id: tenantId } : {}) });
  };

  return (
    <form className="card" onSubmit={submit} noValidate>
      <div className="brand">
        <img src={icon} alt="" width="36" height="36" />
        <h1>{title}</h1>
      </div>
      {wrongCredentials ? <Banner tone="error">{t('wrong')}</Banner> : null}
      {error && !wrongCredentials && !tenantRequired ? <ErrorBanner error={error} shownPointers={credentials.map((field) => `/user/${field.name}`)} /> : null}
      {credentials.map(({ name, set, ...field }) => (
        <TextField key={name} label={t(name)} name={name} required {...field} onChange={(e) => set(e.target.value)} errors={errorsAt(error, `/user/${name}`)} />
      ))}
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
  );
}
