// Failing a stop, built from the stop's failure_options: the outcomes this driver may choose (the others shown with
// the API's localized reason why not), the stop failure reasons for its type, and a note. Sent through the outbox.
import { useState, type FormEvent } from 'react';
import { FAILURE_OUTCOMES as OUTCOMES, type Schemas } from '../../../api/index.ts';
import { useT } from '../../../i18n/index.tsx';
import { Button, Dialog, SelectField, TextArea } from '../../../ui/index.ts';
import { useStopFailureReasons } from '../../data.ts';
import { takeAction } from '../../queue/index.ts';
import type { ProjectedStop } from '../../queue/project.ts';
import { messages } from './messages.ts';

type Outcome = Schemas['FailureOutcome'];
/**
 * The checks an action still waiting on the phone will have passed once it is sent (the stop under way, the tour en
 * route, the tour the driver's): the server computed the options before, so those answers are stale here. The
 * server checks again when the failure arrives; a refusal is shown (outbox).
 */
const STALE_WHILE_WAITING = new Set(['stop_not_in_progress', 'tour_not_active', 'not_permitted']);

type Option = Schemas['FailureOutcomeOption'];
/** Options never fetched (offline from the start) offer every outcome: the server decides, a refusal is shown. */
const allowedNow = (option: Option | undefined, projected: boolean): boolean =>
  option === undefined || option.allowed || (projected && STALE_WHILE_WAITING.has(option.reason_key ?? ''));

export function FailDialog({ tourId, stop, options: failureOptions, number, projected, onClose }: { tourId: string; stop: ProjectedStop; options: Schemas['FailureOptions'] | undefined; number: number; projected: boolean; onClose: () => void }) {
  const t = useT(messages);
  const reasons = useStopFailureReasons();
  const options = failureOptions?.outcomes;
  const [outcome, setOutcome] = useState<Outcome | null>(() => OUTCOMES.find((o) => allowedNow(options?.[o], projected)) ?? null);
  const [reasonKey, setReasonKey] = useState('');
  const [note, setNote] = useState('');
  const applicable = (reasons.data ?? []).filter((r) => r.applies_to.stop_types.length === 0 || r.applies_to.stop_types.includes(stop.type));
  const noteRequired = applicable.find((r) => r.key === reasonKey)?.properties.note_required ?? false;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (noteRequired && !note.trim()) return;
    const body = { ...(outcome ? { outcome } : {}), ...(reasonKey ? { reason_key: reasonKey } : {}), ...(note.trim() ? { note: note.trim() } : {}) };
    void takeAction({ kind: 'fail', tourId, stopId: stop.id, path: `/api/stops/${stop.id}/fail`, body });
    onClose();
  };

  return (
    <Dialog open onClose={onClose} title={t('fail_title', { n: number })}>
      <form className="stack" onSubmit={submit}>
        <fieldset className="stack">
          <legend>{t('outcome')}</legend>
          {OUTCOMES.map((key) => {
            const option = options?.[key];
            const allowed = allowedNow(option, projected);
            const id = `fail-outcome-${key}`;
            return (
              <div key={key} className="drv-choice">
                <label htmlFor={id}>
                  <input type="radio" id={id} name="outcome" value={key} checked={outcome === key} disabled={!allowed} onChange={() => setOutcome(key)} aria-describedby={allowed ? undefined : `${id}-why`} />
                  {t(`outcome.${key}`)}
                </label>
                {!allowed && option?.reason ? (
                  <span className="hint" id={`${id}-why`}>
                    {option.reason}
                  </span>
                ) : null}
              </div>
            );
          })}
        </fieldset>
        <SelectField label={t('fail_reason')} value={reasonKey} onChange={(e) => setReasonKey(e.target.value)}>
          <option value="">{t('choose_reason')}</option>
          {applicable.map((reason) => (
            <option key={reason.key} value={reason.key}>
              {reason.label}
            </option>
          ))}
        </SelectField>
        <TextArea label={t('note')} value={note} maxLength={2000} required={noteRequired} hint={noteRequired ? t('note_required') : undefined} onChange={(e) => setNote(e.target.value)} />
        <div className="drv-actions">
          <Button type="submit" variant="danger">
            {t('confirm_fail')}
          </Button>
          <Button onClick={onClose}>{t('close')}</Button>
        </div>
      </form>
    </Dialog>
  );
}
