// Parts the settings sections share: a secret shown once, a confirmation, cursor paging and a set of checkboxes.
import { useId, useState, type ReactNode } from 'react';
import { common } from '../../../i18n/common.ts';
import { useT } from '../../../i18n/index.tsx';
import { Banner, Button, Dialog } from '../../../ui/index.ts';
import { messages } from './messages.ts';

/**
 * A secret (webhook secret, API key token) in a dialog with a copy button and the "shown once" note. Closing it calls
 * `onDone`, which resets the mutation holding the answer: nothing keeps the secret afterwards.
 */
export function SecretOnce({ title, label, secret, onDone }: { title: string; label: string; secret: string | undefined; onDone: () => void }) {
  const t = useT(messages);
  const id = useId();
  const [copied, setCopied] = useState<'ok' | 'failed' | null>(null);
  const close = () => {
    setCopied(null);
    onDone();
  };
  const copy = () =>
    navigator.clipboard.writeText(secret ?? '').then(
      () => setCopied('ok'),
      () => setCopied('failed'),
    );
  return (
    <Dialog open={secret !== undefined} onClose={close} title={title}>
      <Banner tone="warn">
        <strong>{t('shown_once')}:</strong> {t('shown_once_note')}
      </Banner>
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <input id={id} className="mono" readOnly value={secret ?? ''} onFocus={(e) => e.currentTarget.select()} />
      </div>
      <div className="row">
        <Button onClick={() => void copy()}>{t('copy')}</Button>
        <span role="status" className="muted">
          {copied === 'ok' ? t('copied') : copied === 'failed' ? t('copy_failed') : ''}
        </span>
      </div>
      <div>
        <Button variant="primary" onClick={close}>
          {t('done')}
        </Button>
      </div>
    </Dialog>
  );
}

export function Confirm({ open, title, children, action, busy, onConfirm, onClose }: { open: boolean; title: string; children: ReactNode; action: string; busy: boolean; onConfirm: () => void; onClose: () => void }) {
  const tc = useT(common);
  return (
    <Dialog open={open} onClose={onClose} title={title}>
      {children}
      <div className="row">
        <Button variant="danger" busy={busy} onClick={onConfirm}>
          {action}
        </Button>
        <Button onClick={onClose}>{tc('cancel')}</Button>
      </div>
    </Dialog>
  );
}

/** A labelled group of checkboxes over `options`; `errors` are the API's messages at the group's pointer. */
export function Checkboxes<V extends string>({ legend, hint, options, value, onChange, errors }: { legend: string; hint?: string; options: { value: V; label: string }[]; value: V[]; onChange: (next: V[]) => void; errors?: string[] | undefined }) {
  const id = useId();
  return (
    <fieldset className="checks" aria-describedby={errors?.length ? `${id}-error` : hint ? `${id}-hint` : undefined}>
      <legend>{legend}</legend>
      {hint ? (
        <p className="hint muted" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <div className="check-grid">
        {options.map((option) => (
          <label key={option.value} className="check">
            <input
              type="checkbox"
              checked={value.includes(option.value)}
              onChange={(e) => onChange(e.target.checked ? [...value, option.value] : value.filter((v) => v !== option.value))}
            />{' '}
            {option.label}
          </label>
        ))}
      </div>
      {errors?.length ? (
        <p className="error" id={`${id}-error`}>
          {errors.join(' ')}
        </p>
      ) : null}
    </fieldset>
  );
}
