// The file chooser of the new-report form: the native input (keyboard and screen readers use it as is) with a label
// in the page's language, since Chromium words its own button in the browser's language, not the page's.
import { useId } from 'react';
import { useT } from '../../../i18n/index.tsx';
import { messages } from './messages.ts';

export function FileField({ label, hint, errors, file, onChange }: { label: string; hint: string; errors: string[] | undefined; file: File | null; onChange: (file: File | null) => void }) {
  const t = useT(messages);
  const id = useId();
  const described = [`${id}-chosen`, `${id}-hint`, errors?.length ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <span className="label" id={`${id}-label`}>
        {label}
      </span>
      <div className="file-pick">
        <input id={id} type="file" aria-labelledby={`${id}-label`} aria-describedby={described} aria-invalid={errors?.length ? true : undefined} onChange={(e) => onChange(e.target.files?.[0] ?? null)} />
        <label htmlFor={id} className="btn">
          {t('choose_file')}
        </label>
        <span className="muted break" id={`${id}-chosen`}>
          {file ? file.name : t('no_file_chosen')}
        </span>
      </div>
      <span className="hint" id={`${id}-hint`}>
        {hint}
      </span>
      {errors?.length ? (
        <span className="error" id={`${id}-error`}>
          {errors.join(' ')}
        </span>
      ) : null}
    </div>
  );
}
