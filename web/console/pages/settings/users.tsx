// Users: the list (a manager reads those sharing one of its organizations, decision 0202); admins create users with
// role, organizations and a password or an e-mail invitation (a one-time link to set it, decision 1602), invite again,
// and deactivate them (decision 0203).
import { useState, type FormEvent } from 'react';
import { byId, useOrganizations, type Schemas, type User } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useFormat, useT } from '../../../i18n/index.tsx';
import { Badge, Banner, Button, Dialog, ErrorBanner, errorsAt, Loading, Pager, SelectField, TextField, useCursorPages } from '../../../ui/index.ts';
import { messages } from './messages.ts';
import { Checkboxes, Confirm } from './parts.tsx';
import { useCreateUser, useDeactivateUser, useInviteUser, useUsersPage } from './queries.ts';

const ROLES: Schemas['Role'][] = ['admin', 'manager', 'driver', 'customer'];

function NewUser({ onClose, onInvited }: { onClose: () => void; onInvited: (email: string) => void }) {
  const t = useT(messages);
  const tc = useT(common);
  const create = useCreateUser();
  const invite = useInviteUser();
  const [sendInvitation, setSendInvitation] = useState(true);
  const organizations = useOrganizations();
  const [role, setRole] = useState<Schemas['Role']>('driver');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  const [password, setPassword] = useState('');
  const [orgs, setOrgs] = useState<string[]>([]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { role, name: name.trim(), email: email.trim(), ...(phone.trim() ? { phone_number: phone.trim() } : {}), ...(password ? { password } : {}), organization_ids: orgs },
      {
        onSuccess: ({ user }) => {
          if (!sendInvitation) return onClose();
          invite.mutate(user.id, { onSuccess: ({ invitation }) => (onInvited(invitation.email), onClose()) });
        },
      },
    );
  };
  const shown = ['/user/role', '/user/name', '/user/email', '/user/phone_number', '/user/password', '/user/organization_ids'];
  return (
    <Dialog open onClose={onClose} title={t('new_user')}>
      <form className="stack" onSubmit={submit}>
        <ErrorBanner error={create.error} shownPointers={shown} />
        <TextField label={t('name')} required value={name} onChange={(e) => setName(e.target.value)} errors={errorsAt(create.error, '/user/name')} />
        <TextField label={t('email')} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} errors={errorsAt(create.error, '/user/email')} />
        <SelectField label={t('role')} value={role} onChange={(e) => setRole(e.target.value as Schemas['Role'])} errors={errorsAt(create.error, '/user/role')}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {t(`role.${r}`)}
            </option>
          ))}
        </SelectField>
        <Checkboxes
          legend={t('user_organizations')}
          hint={t('user_organizations_hint')}
          options={(organizations.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
          value={orgs}
          onChange={setOrgs}
          errors={errorsAt(create.error, '/user/organization_ids')}
        />
        <TextField label={t('password')} hint={t('password_hint')} type="password" autoComplete="new-password" minLength={8} maxLength={256} value={password} onChange={(e) => setPassword(e.target.value)} errors={errorsAt(create.error, '/user/password')} />
        <TextField label={t('phone')} type="tel" value={phone} onChange={(e) => setPhone(e.target.value)} errors={errorsAt(create.error, '/user/phone_number')} />
        <label className="check">
          <input type="checkbox" checked={sendInvitation} onChange={(e) => setSendInvitation(e.target.checked)} /> {t('send_invitation')}
        </label>
        <ErrorBanner error={invite.error} />
        <div className="row">
          <Button type="submit" variant="primary" busy={create.isPending || invite.isPending}>
            {t('create')}
          </Button>
          <Button onClick={onClose}>{tc('cancel')}</Button>
        </div>
      </form>
    </Dialog>
  );
}

export function UsersSection({ user }: { user: User }) {
  const t = useT(messages);
  const tc = useT(common);
  const format = useFormat();
  const paging = useCursorPages();
  const users = useUsersPage(paging.cursor);
  const organizations = byId(useOrganizations().data);
  const deactivate = useDeactivateUser();
  const invite = useInviteUser();
  const [invited, setInvited] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [asking, setAsking] = useState<User | null>(null);
  const admin = user.role === 'admin';
  return (
    <section className="stack" aria-labelledby="settings-section">
      <div className="page-head">
        <h2 id="settings-section">{t('users')}</h2>
        {admin ? (
          <Button variant="primary" onClick={() => setCreating(true)}>
            {t('new_user')}
          </Button>
        ) : null}
      </div>
      {!admin ? <p className="muted">{t('read_only')}</p> : null}
      {creating ? <NewUser onClose={() => setCreating(false)} onInvited={setInvited} /> : null}
      <div role="status">{invited ? <Banner tone="ok">{t('invitation_sent', { email: invited })}</Banner> : null}</div>
      <ErrorBanner error={users.error ?? deactivate.error ?? invite.error} />
      {users.isPending ? <Loading label={tc('loading')} /> : null}
      {users.data?.users.length ? (
        <div className="table-wrap">
          <table className="data">
            <caption className="visually-hidden">{t('users')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('name')}</th>
                <th scope="col">{t('role')}</th>
                <th scope="col" className="hide-narrow">{t('user_organizations')}</th>
                <th scope="col">{t('status')}</th>
                {admin ? <th scope="col">{t('col_actions')}</th> : null}
              </tr>
            </thead>
            <tbody>
              {users.data.users.map((u) => (
                <tr key={u.id}>
                  <td className="break">
                    {u.name}
                    {u.id === user.id ? ` (${t('you')})` : ''}
                    <div className="muted">{u.email}</div>
                  </td>
                  <td>{t(`role.${u.role}`)}</td>
                  <td className="hide-narrow">{u.organization_ids.map((id) => organizations.get(id)?.name ?? '…').join(', ') || '—'}</td>
                  <td>{u.deactivated_at ? <Badge tone="neutral">{`${t('deactivated')} ${format.date(u.deactivated_at)}`}</Badge> : <Badge tone="ok">{t('active')}</Badge>}</td>
                  {admin ? (
                    <td>
                      {!u.deactivated_at && u.id !== user.id ? (
                        <Button small aria-label={t('invite_named', { name: u.name })} busy={invite.isPending && invite.variables === u.id} onClick={() => invite.mutate(u.id, { onSuccess: ({ invitation }) => setInvited(invitation.email) })}>
                          {t('invite')}
                        </Button>
                      ) : null}{' '}
                      {!u.deactivated_at && u.id !== user.id ? (
                        <Button small variant="danger" aria-label={t('deactivate_named', { name: u.name })} onClick={() => setAsking(u)}>
                          {t('deactivate')}
                        </Button>
                      ) : null}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager label={t('users')} pages={paging} meta={users.data?.meta} />
      <Confirm
        open={asking !== null}
        title={t('deactivate_title', { name: asking?.name ?? '' })}
        action={t('deactivate')}
        busy={deactivate.isPending}
        onConfirm={() => asking && deactivate.mutate(asking.id, { onSettled: () => setAsking(null) })}
        onClose={() => setAsking(null)}
      >
        <p>{t('deactivate_text')}</p>
      </Confirm>
    </section>
  );
}
