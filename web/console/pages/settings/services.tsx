// Tour services: the list (managers read it, decision 0202); admins create a service and edit every field a dispatcher
// sets — area (on create), dispatch mode, tip distribution, stop types and the return stop type, stop limits, required
// delivery proof, each role's failure outcomes and scheduling (api-guide "Tour services and scheduling configs";
// decision 1600). The API's errors appear at the fields their pointers name.
import { useState, type FormEvent } from 'react';
import { byId, FAILURE_OUTCOMES as OUTCOMES, useServiceAreas, type User } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useT } from '../../../i18n/index.tsx';
import { Button, Dialog, ErrorBanner, Loading, SelectField, TextField, errorsAt } from '../../../ui/index.ts';
import { messages } from './messages.ts';
import { Checkboxes } from './parts.tsx';
import { useCreateService, useSchedulingConfigs, useServices, useUpdateService, type ProofKind, type Service, type ServiceCreate } from './queries.ts';

const PROOFS: ProofKind[] = ['signature', 'photo', 'recipient_name', 'note'];
const ROLES = ['admin', 'manager', 'driver'] as const;
const FIELDS = ['name', 'service_area_id', 'dispatch_mode', 'tip_distribution_strategy', 'stop_types', 'return_stop_type', 'max_stops_per_booking', 'max_stops_per_tour', 'force_delivery_proof', 'failure_outcomes', 'scheduling_config_id'];
/** A new service starts from the API's defaults (contract: Service), so the form shows what "leave it" means. */
const DEFAULTS: Omit<Service, 'id' | 'created_at' | 'service_area_id'> = {
  name: '',
  dispatch_mode: 'manual',
  tip_distribution_strategy: 'noop',
  stop_types: ['pickup', 'dropoff', 'task', 'return'],
  return_stop_type: 'return',
  max_stops_per_booking: 25,
  max_stops_per_tour: 100,
  failure_outcomes: { admin: [...OUTCOMES], manager: [...OUTCOMES], driver: [...OUTCOMES] },
  force_delivery_proof: [],
  scheduling_config_id: null,
};

const splitTypes = (text: string) => text.split(',').map((t) => t.trim()).filter(Boolean);

/** The form for a new service (`service` undefined) or an existing one. */
function ServiceForm({ service, onClose }: { service?: Service | undefined; onClose: () => void }) {
  const t = useT(messages);
  const tc = useT(common);
  const update = useUpdateService();
  const create = useCreateService();
  const save = service ? update : create;
  const areas = useServiceAreas();
  const configs = useSchedulingConfigs(true);
  const start = service ?? { ...DEFAULTS, service_area_id: '' };
  const [name, setName] = useState(start.name);
  const [area, setArea] = useState(start.service_area_id);
  const [mode, setMode] = useState(start.dispatch_mode);
  const [tips, setTips] = useState(start.tip_distribution_strategy);
  const [types, setTypes] = useState(start.stop_types.join(', '));
  const [returnType, setReturnType] = useState(start.return_stop_type ?? '');
  const [perBooking, setPerBooking] = useState(String(start.max_stops_per_booking));
  const [perTour, setPerTour] = useState(String(start.max_stops_per_tour));
  const [proof, setProof] = useState<ProofKind[]>(start.force_delivery_proof);
  const [outcomes, setOutcomes] = useState(start.failure_outcomes);
  const [config, setConfig] = useState(start.scheduling_config_id ?? '');
  const areaId = area || areas.data?.[0]?.id || '';
  const typeList = splitTypes(types);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const fields = {
      name: name.trim(),
      dispatch_mode: mode,
      tip_distribution_strategy: tips,
      stop_types: typeList,
      return_stop_type: returnType || null,
      max_stops_per_booking: Number(perBooking),
      max_stops_per_tour: Number(perTour),
      force_delivery_proof: proof,
      failure_outcomes: outcomes,
      scheduling_config_id: config || null,
    };
    if (service) update.mutate({ id: service.id, service: fields }, { onSuccess: onClose });
    else create.mutate({ ...fields, service_area_id: areaId } satisfies ServiceCreate, { onSuccess: onClose });
  };
  const at = (field: string) => errorsAt(save.error, `/service/${field}`);
  // The return stop type must be one of the stop types: the select offers those (and what is stored, while typing).
  const returnChoices = [...new Set([...typeList, ...(returnType ? [returnType] : [])])];
  return (
    <Dialog open onClose={onClose} title={service ? t('edit_service', { name: service.name }) : t('new_service')}>
      <form className="stack" onSubmit={submit}>
        <ErrorBanner error={save.error} shownPointers={FIELDS.map((f) => `/service/${f}`)} />
        <TextField label={t('name')} required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} errors={at('name')} />
        {service ? null : (
          <SelectField label={t('area')} required value={areaId} onChange={(e) => setArea(e.target.value)} errors={at('service_area_id')}>
            {(areas.data ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </SelectField>
        )}
        <SelectField label={t('dispatch_mode')} value={mode} onChange={(e) => setMode(e.target.value as Service['dispatch_mode'])} errors={at('dispatch_mode')}>
          <option value="manual">{t('dispatch.manual')}</option>
          <option value="auto">{t('dispatch.auto')}</option>
        </SelectField>
        <SelectField label={t('tip_strategy')} value={tips} onChange={(e) => setTips(e.target.value as Service['tip_distribution_strategy'])} errors={at('tip_distribution_strategy')}>
          <option value="noop">{t('tips.noop')}</option>
          <option value="completed_dropoffs_on_tour">{t('tips.completed_dropoffs_on_tour')}</option>
        </SelectField>
        <TextField label={t('stop_types')} hint={t('stop_types_hint')} required value={types} onChange={(e) => setTypes(e.target.value)} errors={at('stop_types')} />
        <SelectField label={t('return_stop_type')} value={returnType} onChange={(e) => setReturnType(e.target.value)} errors={at('return_stop_type')}>
          <option value="">{t('no_returns')}</option>
          {returnChoices.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
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
        <SelectField label={t('scheduling_config')} value={config} onChange={(e) => setConfig(e.target.value)} errors={at('scheduling_config_id')}>
          <option value="">{t('no_scheduling_config')}</option>
          {(configs.data ?? []).map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </SelectField>
        <div className="row">
          <Button type="submit" variant="primary" busy={save.isPending}>
            {service ? tc('save') : t('create')}
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
  const [editing, setEditing] = useState<Service | 'new' | null>(null);
  return (
    <section className="stack" aria-labelledby="settings-section">
      <div className="page-head">
        <h2 id="settings-section">{t('services')}</h2>
        {admin ? (
          <Button variant="primary" onClick={() => setEditing('new')}>
            {t('new_service')}
          </Button>
        ) : null}
      </div>
      {!admin ? <p className="muted">{t('read_only')}</p> : null}
      {editing ? <ServiceForm service={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} /> : null}
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
