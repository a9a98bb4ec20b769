// Organizations: the list (a manager reads its own, decision 0202); admins create and edit name and service areas.
import { useState, type FormEvent } from 'react';
import { byId, useOrganizations, useServiceAreas, type Organization, type User } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useFormat, useT } from '../../../i18n/index.tsx';
import { Button, Dialog, ErrorBanner, Loading, TextField, errorsAt } from '../../../ui/index.ts';
import { messages } from './messages.ts';
import { Checkboxes } from './parts.tsx';
import { useSaveOrganization } from './queries.ts';

function OrganizationForm({ organization, onClose }: { organization: Organization | null; onClose: () => void }) {
  const t = useT(messages);
  const tc = useT(common);
  const save = useSaveOrganization();
  const areas = useServiceAreas();
  const [name, setName] = useState(organization?.name ?? '');
  const [areaIds, setAreaIds] = useState<string[]>(organization?.service_area_ids ?? []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ ...(organization ? { id: organization.id } : {}), organization: { name: name.trim(), service_area_ids: areaIds } }, { onSuccess: onClose });
  };
  return (
    <Dialog open onClose={onClose} title={organization ? t('edit_named', { name: organization.name }) : t('new_organization')}>
      <form className="stack" onSubmit={submit}>
        <ErrorBanner error={save.error} shownPointers={['/organization/name', '/organization/service_area_ids']} />
        <TextField label={t('name')} required value={name} onChange={(e) => setName(e.target.value)} errors={errorsAt(save.error, '/organization/name')} />
        <Checkboxes
          legend={t('organization_areas')}
          options={(areas.data ?? []).map((a) => ({ value: a.id, label: a.name }))}
          value={areaIds}
          onChange={setAreaIds}
          errors={errorsAt(save.error, '/organization/service_area_ids')}
        />
        <div className="row">
          <Button type="submit" variant="primary" busy={save.isPending}>
            {tc('save')}
          </Button>
          <Button onClick={onClose}>{tc('cancel')}</Button>
        </div>
      </form>
    </Dialog>
  );
}

export function OrganizationsSection({ user }: { user: User }) {
  const t = useT(messages);
  const tc = useT(common);
  const format = useFormat();
  const organizations = useOrganizations();
  const admin = user.role === 'admin';
  const areas = byId(useServiceAreas().data);
  const [editing, setEditing] = useState<Organization | 'new' | null>(null);
  return (
    <section className="stack" aria-labelledby="settings-section">
      <div className="page-head">
        <h2 id="settings-section">{t('organizations')}</h2>
        {admin ? (
          <Button variant="primary" onClick={() => setEditing('new')}>
            {t('new_organization')}
          </Button>
        ) : null}
      </div>
      {!admin ? <p className="muted">{t('read_only')}</p> : null}
      {editing ? <OrganizationForm organization={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
      <ErrorBanner error={organizations.error} />
      {organizations.isPending ? <Loading label={tc('loading')} /> : null}
      {organizations.data?.length === 0 ? <p className="card">{t('empty')}</p> : null}
      {organizations.data?.length ? (
        <div className="table-wrap">
          <table className="data">
            <caption className="visually-hidden">{t('organizations')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('name')}</th>
                {admin ? <th scope="col">{t('organization_areas')}</th> : null}
                <th scope="col" className="hide-narrow">{t('created')}</th>
                {admin ? <th scope="col">{t('col_actions')}</th> : null}
              </tr>
            </thead>
            <tbody>
              {organizations.data.map((o) => (
                <tr key={o.id}>
                  <td>{o.name}</td>
                  {admin ? <td>{o.service_area_ids.map((id) => areas.get(id)?.name ?? '…').join(', ') || '—'}</td> : null}
                  <td className="hide-narrow">{format.date(o.created_at)}</td>
                  {admin ? (
                    <td>
                      <Button small aria-label={t('edit_named', { name: o.name })} onClick={() => setEditing(o)}>
                        {t('edit')}
                      </Button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
