// The fail-stop dialog, built from the stop's failure_options: every outcome listed, those not allowed disabled with
// the API's localized reason; the reasons from the catalogue; a note where the reason needs one.
import { useState, type FormEvent } from 'react';
import { FAILURE_OUTCOMES as OUTCOMES, useStopFailureReasons } from '../../../api/index.ts';
import { useLang, useT } from '../../../i18n/index.tsx';
import { Button, Dialog, ErrorBanner, SelectField, TextArea, errorsAt } from '../../../ui/index.ts';
import { messages } from './messages.ts';
import { useFailStop, type FailureOutcome, type Stop } from './queries.ts';

export function FailDialog({ tourId, stop, position, onClose }: { tourId: string; stop: Stop; position: number; onClose: () => void }) {
  const t = useT(messages);
  const reasons = useStopFailureReasons(useLang().lang);
  const fail = useFailStop(tourId);
  const options = stop.failure_options?.outcomes;
  const firstAllowed = OUTCOMES.find((o) => options?.[o]?.allowed) ?? 'skip_recovery';
  const [outcome, setOutcome] = useState<FailureOutcome>(firstAllowed);
  const [reasonKey, setReasonKey] = useState('');
  const [note, setNote] = useState('');
  const applicable = (reasons.data ?? []).filter((r) => r.applies_to.stop_types.length === 0 || r.applies_to.stop_types.includes(stop.type));
  const noteRequired = applicable.find((r) => r.key === reasonKey)?.properties.note_required ?? false;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    fail.mutate({ stopId: stop.id, outcome, ...(reasonKey ? { reason_key: reasonKey } : {}), ...(note.trim() ? { note: note.trim() } : {}) }, { onSuccess: onClose });
  };

  return (
    <Dialog open onClose={onClose} title={t('fail_stop', { position: position + 1 })}>
      <form className="stack" onSubmit={submit}>
        <ErrorBanner error={fail.error} shownPointers={['/outcome', '/reason_key', '/note']} />
        <fieldset>
          <legend>{t('outcome')}</legend>
          {OUTCOMES.map((key) => {
            const option = options?.[key];
            const id = `outcome-${key}`;
            return (
              <div key={key} className="field">
                <label htmlFor={id} className="row">
                  <input type="radio" id={id} name="outcome" value={key} checked={outcome === key} disabled={!option?.allowed} onChange={() => setOutcome(key)} aria-describedby={option?.allowed ? undefined : `${id}-why`} />
                  {t(`outcome.${key}`)}
                </label>
                {!option?.allowed && option?.reason ? (
                  <span className="hint" id={`${id}-why`}>
                    {option.reason}
                  </span>
                ) : null}
              </div>
            );
          })}
          {errorsAt(fail.error, '/outcome')?.map((message) => (
            <p key={message} className="error">
              {message}
            </p>
          ))}
        </fieldset>
        <SelectField label={t('reason')} value={reasonKey} onChange={(e) => setReasonKey(e.target.value)} errors={errorsAt(fail.error, '/reason_key')}>
          <option value="">{t('choose_reason')}</option>
          {applicable.map((reason) => (
            <option key={reason.key} value={reason.key}>
              {reason.label}
            </option>
          ))}
        </SelectField>
        <TextArea label={t('note')} value={note} maxLength={2000} required={noteRequired} hint={noteRequired ? t('note_required') : undefined} onChange={(e) => setNote(e.target.value)} errors={errorsAt(fail.error, '/note')} />
        <div className="row">
          <Button type="submit" variant="danger" busy={fail.isPending}>
            {t('fail_submit')}
          </Button>
          <Button onClick={onClose}>{t('close')}</Button>
        </div>
      </form>
    </Dialog>
  );
}
