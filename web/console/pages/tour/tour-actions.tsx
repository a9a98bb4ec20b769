// The dispatcher's tour actions, each offered only in the states the tour machine allows it from (the API guide,
// "Tour lifecycle"): schedule, open for picking, hold back, force-assign a driver (optionally starting the tour),
// force-unassign and cancel — the last two behind a confirmation, since a driver loses the tour.
import { useState, type FormEvent } from 'react';
import { useDrivers, type Schemas } from '../../../api/index.ts';
import { useT } from '../../../i18n/index.tsx';
import { Button, Dialog, ErrorBanner, SelectField, errorsAt } from '../../../ui/index.ts';
import { messages } from './messages.ts';
import { useForceAssign, useTourAction, type TourAction } from './queries.ts';

type TourStatus = Schemas['TourStatus'];

/** From which states each dispatcher action is allowed: the "Tour lifecycle" table of the API guide. */
export const ALLOWED_FROM: Record<TourAction | 'force_assign', readonly TourStatus[]> = {
  schedule: ['to_be_dispatched'],
  ready_to_pick: ['to_be_dispatched', 'scheduled'],
  hold: ['scheduled', 'pickable'],
  force_assign: ['to_be_dispatched', 'scheduled', 'pickable'],
  force_unassign: ['claimed', 'en_route'],
  cancel: ['to_be_dispatched', 'scheduled', 'pickable', 'claimed', 'en_route'],
};

const PLAIN: TourAction[] = ['schedule', 'ready_to_pick', 'hold'];
const CONFIRMED: TourAction[] = ['force_unassign', 'cancel'];

export function TourActions({ tourId, status }: { tourId: string; status: TourStatus }) {
  const t = useT(messages);
  const action = useTourAction(tourId);
  const assign = useForceAssign(tourId);
  const drivers = useDrivers();
  const [confirming, setConfirming] = useState<TourAction | null>(null);
  const allowed = (name: TourAction | 'force_assign') => ALLOWED_FROM[name].includes(status);
  const offered = [...PLAIN, ...CONFIRMED].filter(allowed);

  const submitAssign = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    action.reset();
    assign.mutate({ driver_id: String(form.get('driver_id') ?? ''), start: form.get('start') === 'on' });
  };

  return (
    <section className="card stack" aria-labelledby="tour-actions-title">
      <h2 id="tour-actions-title">{t('actions')}</h2>
      {action.isError ? <ErrorBanner error={action.error} /> : null}
      {offered.length === 0 && !allowed('force_assign') ? <p className="muted">{t('no_actions')}</p> : null}
      {offered.length ? (
        <div className="row">
          {offered.map((name) =>
            CONFIRMED.includes(name) ? (
              <Button key={name} variant="danger" onClick={() => setConfirming(name)}>
                {t(`action.${name}`)}
              </Button>
            ) : (
              <Button key={name} busy={action.isPending && action.variables === name} onClick={() => (assign.reset(), action.mutate(name))}>
                {t(`action.${name}`)}
              </Button>
            ),
          )}
        </div>
      ) : null}
      {allowed('force_assign') ? (
        <form className="stack" onSubmit={submitAssign} aria-labelledby="assign-title">
          <h3 id="assign-title">{t('assign_driver')}</h3>
          <SelectField label={t('assign_driver_label')} name="driver_id" required defaultValue="" errors={errorsAt(assign.error, '/driver_id')}>
            <option value="" disabled>
              {t('choose_driver')}
            </option>
            {(drivers.data ?? [])
              .filter((driver) => !driver.deactivated_at)
              .map((driver) => (
                <option key={driver.id} value={driver.id}>
                  {driver.name}
                </option>
              ))}
          </SelectField>
          <label className="check">
            <input type="checkbox" name="start" /> {t('assign_start')}
          </label>
          {assign.isError ? <ErrorBanner error={assign.error} shownPointers={['/driver_id']} /> : null}
          <div className="row">
            <Button type="submit" variant="primary" busy={assign.isPending}>
              {t('assign')}
            </Button>
          </div>
        </form>
      ) : null}
      <Dialog open={confirming !== null} onClose={() => setConfirming(null)} title={confirming === 'cancel' ? t('confirm_cancel_title') : t('confirm_unassign_title')}>
        <p>{confirming === 'cancel' ? t('confirm_cancel') : t('confirm_unassign')}</p>
        <div className="row">
          <Button
            variant="danger"
            busy={action.isPending}
            onClick={() => {
              if (!confirming) return;
              assign.reset();
              action.mutate(confirming, { onSettled: () => setConfirming(null) });
            }}
          >
            {confirming ? t(`action.${confirming}`) : null}
          </Button>
          <Button onClick={() => setConfirming(null)}>{t('keep')}</Button>
        </div>
      </Dialog>
    </section>
  );
}
