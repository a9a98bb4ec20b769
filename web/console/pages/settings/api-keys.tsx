// API keys (admins): the list with each key's prefix, a new key whose token is shown once, and revoking
// (api-guide "API keys, sign-in and refresh").
import { useState, type FormEvent } from 'react';
import { byId } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useFormat, useT } from '../../../i18n/index.tsx';
import { Badge, Button, Dialog, ErrorBanner, errorsAt, Loading, Pager, SelectField, TextField, useCursorPages } from '../../../ui/index.ts';
import { messages } from './messages.ts';
import { Confirm, SecretOnce } from './parts.tsx';
import { useAllUsers, useApiKeys, useCreateApiKey, useRevokeApiKey, type ApiKey } from './queries.ts';

function NewApiKey({ onClose }: { onClose: () => void }) {
  const t = useT(messages);
  const tc = useT(common);
  const create = useCreateApiKey();
  const users = useAllUsers();
  const [name, setName] = useState('');
  const [userId, setUserId] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name: name.trim(), user_id: userId });
  };
  const done = () => {
    create.reset();
    onClose();
  };
  // The form's dialog gives way to the secret's: one modal at a time, and closing the form never drops the secret.
  if (create.data) return <SecretOnce title={t('token_for', { name: create.data.api_key.name ?? '' })} label={t('token')} secret={create.data.api_key.token} onDone={done} />;
  return (
    <Dialog open onClose={onClose} title={t('new_api_key')}>
      <form className="stack" onSubmit={submit}>
        <ErrorBanner error={create.error} shownPointers={['/api_key/name', '/api_key/user_id']} />
        <TextField label={t('key_name')} required value={name} onChange={(e) => setName(e.target.value)} errors={errorsAt(create.error, '/api_key/name')} />
        <SelectField label={t('key_user')} hint={t('key_user_hint')} required value={userId} onChange={(e) => setUserId(e.target.value)} errors={errorsAt(create.error, '/api_key/user_id')}>
          <option value="">—</option>
          {(users.data ?? []).map((u) => (
            <option key={u.id} value={u.id}>
              {u.name} ({t(`role.${u.role}`)})
            </option>
          ))}
        </SelectField>
        <div className="row">
          <Button type="submit" variant="primary" busy={create.isPending}>
            {t('create')}
          </Button>
          <Button onClick={onClose}>{tc('cancel')}</Button>
        </div>
      </form>
    </Dialog>
  );
}

export function ApiKeysSection() {
  const t = useT(messages);
  const tc = useT(common);
  const format = useFormat();
  const paging = useCursorPages();
  const keys = useApiKeys(paging.cursor);
  const users = byId(useAllUsers().data);
  const revoke = useRevokeApiKey();
  const [creating, setCreating] = useState(false);
  const [asking, setAsking] = useState<ApiKey | null>(null);
  const nameOf = (key: ApiKey) => key.name ?? t('unnamed');
  return (
    <section className="stack" aria-labelledby="settings-section">
      <div className="page-head">
        <h2 id="settings-section">{t('api_keys')}</h2>
        <Button variant="primary" onClick={() => setCreating(true)}>
          {t('new_api_key')}
        </Button>
      </div>
      {creating ? <NewApiKey onClose={() => setCreating(false)} /> : null}
      <ErrorBanner error={keys.error ?? revoke.error} />
      {keys.isPending ? <Loading label={tc('loading')} /> : null}
      {keys.data?.api_keys.length === 0 ? <p className="card">{t('empty')}</p> : null}
      {keys.data?.api_keys.length ? (
        <div className="table-wrap">
          <table className="data">
            <caption className="visually-hidden">{t('api_keys')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('key_name')}</th>
                <th scope="col">{t('prefix')}</th>
                <th scope="col" className="hide-narrow">{t('key_user')}</th>
                <th scope="col" className="hide-narrow">{t('created')}</th>
                <th scope="col">{t('col_actions')}</th>
              </tr>
            </thead>
            <tbody>
              {keys.data.api_keys.map((key) => (
                <tr key={key.id}>
                  <td>{nameOf(key)}</td>
                  <td className="mono">{key.token_prefix}…</td>
                  <td className="hide-narrow">{users.get(key.user_id)?.name ?? '…'}</td>
                  <td className="hide-narrow">{format.date(key.created_at)}</td>
                  <td>
                    {key.revoked_at ? (
                      <Badge tone="neutral">{t('revoked')}</Badge>
                    ) : (
                      <Button small variant="danger" aria-label={t('revoke_named', { name: nameOf(key) })} onClick={() => setAsking(key)}>
                        {t('revoke')}
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager label={t('api_keys')} pages={paging} meta={keys.data?.meta} />
      <Confirm
        open={asking !== null}
        title={t('revoke_key_title', { name: asking ? nameOf(asking) : '' })}
        action={t('revoke')}
        busy={revoke.isPending}
        onConfirm={() => asking && revoke.mutate(asking.id, { onSettled: () => setAsking(null) })}
        onClose={() => setAsking(null)}
      >
        <p>{t('revoke_key_text')}</p>
      </Confirm>
    </section>
  );
}
