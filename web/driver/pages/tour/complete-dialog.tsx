// Completing a stop: the result of each of its packages (a code typed or scanned checks the right package), and the
// proof — photo (camera, resized here), signature, recipient's name, note. The proof is optional at stops today
// (decision 0303) and always offered (decision 1201). The completion goes through the outbox: it works offline.
import { useState, type FormEvent } from 'react';
import { useT } from '../../../i18n/index.tsx';
import { Banner, Button, Dialog, SelectField, TextArea, TextField } from '../../../ui/index.ts';
import { usePackageFailureReasons, type Package } from '../../data.ts';
import { takeAction } from '../../queue/index.ts';
import type { ProjectedStop } from '../../queue/project.ts';
import { messages } from './messages.ts';
import { canScan, resizePhoto, scanCode } from './photo.ts';
import { SignaturePad } from './signature-pad.tsx';

type Result = 'picked_up' | 'delivered' | 'failed';
interface PackageChoice {
  result: Result;
  reason_key: string;
  note: string;
}

const labelOf = (pkg: Package): string => pkg.external_label ?? pkg.shortcode;

export function CompleteDialog({ tourId, stop, number, packages, onClose }: { tourId: string; stop: ProjectedStop; number: number; packages: Package[]; onClose: () => void }) {
  const t = useT(messages);
  const reasons = usePackageFailureReasons();
  const success: Result = stop.type === 'pickup' ? 'picked_up' : 'delivered';
  const [choices, setChoices] = useState<Record<string, PackageChoice>>(() => Object.fromEntries(packages.map((p) => [p.id, { result: success, reason_key: '', note: '' }])));
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [code, setCode] = useState('');
  const [codeMessage, setCodeMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [photo, setPhoto] = useState<string | null>(null);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const [signature, setSignature] = useState<string | null>(null);
  const [recipient, setRecipient] = useState('');
  const [note, setNote] = useState('');

  const check = (value: string) => {
    const wanted = value.trim().toUpperCase();
    if (!wanted) return;
    const found = packages.find((p) => p.shortcode.toUpperCase() === wanted || p.external_label?.toUpperCase() === wanted);
    if (found) {
      setChecked((before) => new Set(before).add(found.id));
      setCodeMessage({ tone: 'ok', text: t('code_ok', { label: labelOf(found) }) });
      setCode('');
    } else setCodeMessage({ tone: 'error', text: t('code_unknown', { code: value.trim() }) });
  };

  const scan = async (file: File | undefined) => {
    if (!file) return;
    const value = await scanCode(file).catch(() => null);
    if (value) check(value);
    else setCodeMessage({ tone: 'error', text: t('scan_none') });
  };

  const takePhoto = async (file: File | undefined) => {
    setPhotoError(null);
    if (!file) return setPhoto(null);
    try {
      setPhoto(await resizePhoto(file));
    } catch (error) {
      setPhotoError(error instanceof Error ? error.message : String(error));
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const proof = {
      ...(photo ? { photo } : {}),
      ...(signature ? { signature } : {}),
      ...(recipient.trim() ? { recipient_name: recipient.trim() } : {}),
      ...(note.trim() ? { note: note.trim() } : {}),
    };
    const results = packages.map((p) => {
      const choice = choices[p.id]!;
      return { id: p.id, result: choice.result, ...(choice.result === 'failed' && choice.reason_key ? { reason_key: choice.reason_key } : {}), ...(choice.result === 'failed' && choice.note.trim() ? { note: choice.note.trim() } : {}) };
    });
    const body = { ...(results.length ? { packages: results } : {}), ...(Object.keys(proof).length ? { proof } : {}) };
    void takeAction({ kind: 'complete', tourId, stopId: stop.id, path: `/api/stops/${stop.id}/complete`, body });
    onClose();
  };

  const setChoice = (id: string, patch: Partial<PackageChoice>) => setChoices((before) => ({ ...before, [id]: { ...before[id]!, ...patch } }));

  return (
    <Dialog open onClose={onClose} title={t('complete_title', { n: number })}>
      <form className="stack" onSubmit={submit}>
        {packages.length ? (
          <fieldset className="stack">
            <legend>{t('package_results')}</legend>
            <TextField label={t('scan_code')} hint={t('scan_hint')} value={code} autoComplete="off" autoCapitalize="characters" onChange={(e) => setCode(e.target.value)} onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                check(code);
              }
            }} />
            <div className="drv-actions">
              <Button onClick={() => check(code)}>{t('check')}</Button>
              {canScan() ? (
                <label className="btn">
                  {t('scan')}
                  <input className="visually-hidden" type="file" accept="image/*" capture="environment" onChange={(e) => void scan(e.target.files?.[0])} />
                </label>
              ) : null}
            </div>
            {codeMessage ? (
              <p role="status" className={codeMessage.tone === 'ok' ? 'drv-ok' : 'error'}>
                {codeMessage.text}
              </p>
            ) : null}
            {packages.map((pkg) => {
              const choice = choices[pkg.id]!;
              const label = labelOf(pkg);
              return (
                <div key={pkg.id} className="drv-package">
                  <SelectField label={`${t('result', { label })}${checked.has(pkg.id) ? ` ✓ ${t('checked')}` : ''}`} value={choice.result} onChange={(e) => setChoice(pkg.id, { result: e.target.value as Result })}>
                    <option value={success}>{t(`result.${success}`)}</option>
                    <option value="failed">{t('result.failed')}</option>
                  </SelectField>
                  {choice.result === 'failed' ? (
                    <>
                      <SelectField label={t('reason', { label })} value={choice.reason_key} onChange={(e) => setChoice(pkg.id, { reason_key: e.target.value })}>
                        <option value="">{t('choose_reason')}</option>
                        {(reasons.data ?? []).map((reason) => (
                          <option key={reason.key} value={reason.key}>
                            {reason.label}
                          </option>
                        ))}
                      </SelectField>
                      <TextField label={`${t('note')} (${label})`} value={choice.note} maxLength={2000} onChange={(e) => setChoice(pkg.id, { note: e.target.value })} />
                    </>
                  ) : null}
                </div>
              );
            })}
          </fieldset>
        ) : null}
        <fieldset className="stack">
          <legend>{t('proof')}</legend>
          <div className="field">
            <label htmlFor="proof-photo">{t('photo')}</label>
            <span className="hint" id="proof-photo-hint">
              {t('photo_hint')}
            </span>
            <input id="proof-photo" type="file" accept="image/*" capture="environment" aria-describedby="proof-photo-hint" onChange={(e) => void takePhoto(e.target.files?.[0])} />
            {photo ? (
              <p role="status" className="drv-ok">
                {t('photo_taken', { size: Math.round((photo.length * 3) / 4 / 1024) })}
              </p>
            ) : null}
            {photoError ? <Banner tone="error">{photoError}</Banner> : null}
          </div>
          <SignaturePad label={t('signature')} hint={t('signature_hint')} clearLabel={t('signature_clear')} onChange={setSignature} />
          <TextField label={t('recipient_name')} value={recipient} maxLength={200} autoComplete="off" onChange={(e) => setRecipient(e.target.value)} />
          <TextArea label={t('note')} value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
        </fieldset>
        <div className="drv-actions">
          <Button type="submit" variant="primary">
            {t('confirm_complete')}
          </Button>
          <Button onClick={onClose}>{t('close')}</Button>
        </div>
      </form>
    </Dialog>
  );
}
