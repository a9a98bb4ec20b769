// A grant in words (whom it reaches) and the grants editor of the new-report form. What a manager may not grant is
// not offered: no "all admins", only its own organizations and the people it can see (api-guide "Grants").
import { byId, useOrganizations, type User } from '../../../api/index.ts';
import { useT } from '../../../i18n/index.tsx';
import { Badge, Button, SelectField, errorsAt } from '../../../ui/index.ts';
import { messages } from './messages.ts';
import { useGrantableUsers, type Grant } from './queries.ts';

const STATE_TONES = { pending: 'info', ready: 'ok', failed: 'danger', expired: 'neutral' } as const;

export function ReportState({ status }: { status: keyof typeof STATE_TONES }) {
  const t = useT(messages);
  return <Badge tone={STATE_TONES[status]}>{t(`state.${status}`)}</Badge>;
}

/** Whom a grant reaches, with names where the caller can see them (an id's end otherwise). */
export function useGrantWords(): (grant: Grant) => string {
  const t = useT(messages);
  const organizations = byId(useOrganizations().data);
  const users = byId(useGrantableUsers().data);
  return (grant) => {
    if (grant.type === 'all_admins') return t('grant_all_admins');
    if (grant.type === 'organization_managers') return t('grant_org_managers', { organization: organizations.get(grant.organization_id)?.name ?? `…${grant.organization_id.slice(-6)}` });
    const user = users.get(grant.user_id);
    return t('grant_user', { user: user ? `${user.name} (${user.email})` : `…${grant.user_id.slice(-6)}` });
  };
}

/** A grant being edited: the type chosen, and the id it names once chosen. */
export interface DraftGrant {
  type: Grant['type'];
  id: string;
}

export const grantOf = (draft: DraftGrant): Grant | null => {
  if (draft.type === 'all_admins') return { type: 'all_admins' };
  if (!draft.id) return null;
  return draft.type === 'organization_managers' ? { type: 'organization_managers', organization_id: draft.id } : { type: 'user', user_id: draft.id };
};

export function GrantsEditor({ user, grants, onChange, error }: { user: User; grants: DraftGrant[]; onChange: (next: DraftGrant[]) => void; error: unknown }) {
  const t = useT(messages);
  const organizations = useOrganizations();
  const users = useGrantableUsers();
  const types: Grant['type'][] = user.role === 'admin' ? ['all_admins', 'organization_managers', 'user'] : ['organization_managers', 'user'];
  const set = (i: number, next: DraftGrant) => onChange(grants.map((g, j) => (j === i ? next : g)));
  return (
    <fieldset className="stack">
      <legend>{t('grants_editor')}</legend>
      <p className="muted">{t('grants_hint')}</p>
      {grants.map((grant, i) => {
        const n = i + 1;
        return (
          <div key={i} className="row grant-row">
            <SelectField label={t('grant_type', { n })} value={grant.type} onChange={(e) => set(i, { type: e.target.value as Grant['type'], id: '' })} errors={errorsAt(error, `/report/grants/${i}`)}>
              {types.map((type) => (
                <option key={type} value={type}>
                  {t(type === 'all_admins' ? 'type_all_admins' : type === 'organization_managers' ? 'type_org_managers' : 'type_user')}
                </option>
              ))}
            </SelectField>
            {grant.type === 'organization_managers' ? (
              <SelectField label={t('grant_org', { n })} value={grant.id} required onChange={(e) => set(i, { ...grant, id: e.target.value })}>
                <option value="">{t('choose')}</option>
                {(organizations.data ?? []).map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.name}
                  </option>
                ))}
              </SelectField>
            ) : null}
            {grant.type === 'user' ? (
              <SelectField label={t('grant_person', { n })} value={grant.id} required onChange={(e) => set(i, { ...grant, id: e.target.value })}>
                <option value="">{t('choose')}</option>
                {(users.data ?? []).map((u) => (
                  <option key={u.id} value={u.id}>
                    {u.name} ({u.email})
                  </option>
                ))}
              </SelectField>
            ) : null}
            <Button small variant="ghost" onClick={() => onChange(grants.filter((_, j) => j !== i))}>
              {t('remove_grant', { n })}
            </Button>
          </div>
        );
      })}
      <div>
        <Button small onClick={() => onChange([...grants, { type: types[0] ?? 'user', id: '' }])}>
          {t('add_grant')}
        </Button>
      </div>
    </fieldset>
  );
}
