// Tour services: the list (managers read it, decision 0202); admins edit what a service decides — dispatch mode, tip
// distribution, stop limits, required delivery proof and each role's failure outcomes (api-guide "Tour services and
// scheduling configs"). Stop types stay with the API: changing them mid-day reshapes bookings being made.
import { useState, type FormEvent } from 'react';
import { byId, FAILURE_OUTCOMES as OUTCOMES, useServiceAreas, type User } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useT } from '../../../i18n/index.tsx';
import { Button, Dialog, ErrorBanner, Loading, SelectField, TextField, errorsAt } from '../../../ui/index.ts';
import { messages } from './messages.ts';
import { Checkboxes } from './parts.tsx';
import { useServices, useUpdateService, type ProofKind, type Service } from './queries.ts';

const PROOFS: ProofKind[] = ['signature', 'photo', 'recipient_name', 'note'];
const ROLES = ['admin', 'manager', 'driver'] as const;

function ServiceForm({ service, onClose }: { service: Service; onClose: () => void }) {
  const t = useT(messages);
  const tc = useT(common);
  const save = useUpdateService();
  const [name, setName] = useState(service.name);
  const [mode, setMode] = useState(service.dispatch_mode);
  const [tips, setTips] = useState(service.tip_distribution_strategy);
  const [perBooking, setPerBooking] = useState(String(service.max_stops_per_booking));
  const [perTour, setPerTour] = useState(String(service.max_stops_per_tour));
  const [proof, setProof] = useState<ProofKind[]>(service.force_delivery_proof);
  const [outcomes, setOutcomes] = useState(service.failure_outcomes);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      {
        id: service.id,
        service: {
          name: name.trim(),
          dispatch_mode: mode,
          tip_distribution_strategy: tips,
          max_stops_per_booking: Number(perBooking),
          max_stops_per_tour: Number(perTour),
          force_delivery_proof: proof,
          failure_outcomes: outcomes,
        },
      },
      { onSuccess: onClose },
    );
  };
  const at = (field: string) => errorsAt(save.error, `/service/${field}`);
  const fields = ['name', 'dispatch_mode', 'tip_distribution_strategy', 'max_stops_per_booking', 'max_stops_per_tour', 'force_delivery_proof', 'failure_outcomes'];
  return (
    <Dialog open onClose={onClose} title={t('edit_service', { name: service.name })}>
      <form className="stack" onSubmit={submit}>
        <ErrorBanner error={save.error} shownPointers={fields.map((f) => `/service/${f}`)} />
        <TextField label={t('name')} required value={name} onChange={(e) => setName(e.target.value)} errors={at('name')} />
        <SelectField label={t('tip_strategy')} value={tips} onChange={(e) => setTips(e.target.value as Service['tip_distribution_strategy'])} errors={at('tip_distribution_strategy')}>
          <option value="noop">{t('tips.noop')}</option>
          <option value="completed_dropoffs_on_tour">{t('tips.completed_dropoffs_on_tour')}</option>
        </SelectField>
        <SelectField label={t('dispatch_mode')} value={mode} onChange={(e) => setMode(e.target.value as Service['dispatch_mode'])} errors={at('dispatch_mode')}>
          <option value="manual">{t('dispatch.manual')}</option>
          <option value="auto">{t('dispatch.auto')}</option>
        </SelectField>
        <div className="row">
          <TextField label={t('max_stops_booking')} type="number" min={2} max={1000} required value={perBooking} onChange={(e) => setPerBooking(e.target.value)} errors={at('max_stops_per_booking')} />
          <TextField label={t('max_stops_tour')} type="number" min={1} max={5000} required value={perTour} onChange={(e) => setPerTour(e.target.value)} errors={at('max_stops_per_tour')} />
        </div>
        <Checkboxes legend={t('proof')} options={PROOFS.map((p) => ({ value: p, label: t(`proof.${p}`) }))} value={proof} onChange={setProof} errors={at('force_delivery_proof')} />
        {ROLES.map((role) => (
          <Checkboxes
            key={role}
            legend={t('outcomes', { role: t(`role.${role}`) })}
            options={OUTCOMES.map((o) => ({ value: o, label: t(`outcome.${o}`) }))}
            value={outcomes[role]}
            onChange={(next) => setOutcomes({ ...outcomes, [role]: next })}
            errors={at(`failure_outcomes/${role}`)}
          />
        ))}
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

export function ServicesSection({ user }: { user: User }) {
  const t = useT(messages);
  const tc = useT(common);
  const services = useServices();
  const admin = user.role === 'admin';
  const areas = byId(useServiceAreas().data);
  const [editing, setEditing] = useState<Service | null>(null);
  return (
    <section className="stack" aria-labelledby="settings-section">
      <h2 id="settings-section">{t('services')}</h2>
      {!admin ? <p className="muted">{t('read_only')}</p> : null}
      {editing ? <ServiceForm service={editing} onClose={() => setEditing(null)} /> : null}
      <ErrorBanner error={services.error} />
      {services.isPending ? <Loading label={tc('loading')} /> : null}
      {services.data?.length === 0 ? <p className="card">{t('empty')}</p> : null}
      {services.data?.length ? (
        <div className="table-wrap">
          <table className="data">
            <caption className="visually-hidden">{t('services')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('name')}</th>
                {admin ? <th scope="col" className="hide-narrow">{t('area')}</th> : null}
                <th scope="col">{t('tip_strategy')}</th>
                <th scope="col" className="hide-narrow">{t('dispatch_mode')}</th>
                {admin ? <th scope="col">{t('col_actions')}</th> : null}
              </tr>
            </thead>
            <tbody>
              {services.data.map((service) => (
                <tr key={service.id}>
                  <td>{service.name}</td>
                  {admin ? <td className="hide-narrow">{areas.get(service.service_area_id)?.name ?? '…'}</td> : null}
                  <td>{t(`tips.${service.tip_distribution_strategy}`)}</td>
                  <td className="hide-narrow">{t(`dispatch.${service.dispatch_mode}`)}</td>
                  {admin ? (
                    <td>
                      <Button small aria-label={t('edit_named', { name: service.name })} onClick={() => setEditing(service)}>
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
