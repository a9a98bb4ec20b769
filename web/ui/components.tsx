// Shared accessible components: native elements with labels, descriptions and errors wired by id, so assistive
// technology and the browser tests find every control by its accessible name.
import { useEffect, useId, useRef, type ButtonHTMLAttributes, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { TimesNote } from './times-note.tsx';

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost';

export function Button({ variant = 'secondary', small, busy, className, children, ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; small?: boolean; busy?: boolean }) {
  const classes = ['btn', variant !== 'secondary' ? `btn-${variant}` : '', small ? 'btn-small' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <button type="button" className={classes} aria-busy={busy || undefined} disabled={props.disabled || busy} {...props}>
      {children}
    </button>
  );
}

interface FieldProps {
  label: ReactNode;
  hint?: ReactNode;
  /** Messages for this field (from the API's errors at its pointer, or the page's own checks). */
  errors?: string[];
}

function useFieldIds(hint: unknown, errors: string[] | undefined) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = errors?.length ? `${id}-error` : undefined;
  return { id, hintId, errorId, describedBy: [hintId, errorId].filter(Boolean).join(' ') || undefined };
}

function FieldMessages({ hint, hintId, errors, errorId }: { hint?: ReactNode; hintId?: string | undefined; errors?: string[] | undefined; errorId?: string | undefined }) {
  return (
    <>
      {hint ? <span className="hint" id={hintId}>{hint}</span> : null}
      {errors?.length ? (
        <span className="error" id={errorId}>
          {errors.join(' ')}
        </span>
      ) : null}
    </>
  );
}

export function TextField({ label, hint, errors, ...props }: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  const ids = useFieldIds(hint, errors);
  return (
    <div className="field">
      <label htmlFor={ids.id}>{label}</label>
      <input id={ids.id} aria-invalid={errors?.length ? true : undefined} aria-describedby={ids.describedBy} {...props} />
      <FieldMessages hint={hint} hintId={ids.hintId} errors={errors} errorId={ids.errorId} />
    </div>
  );
}

export function TextArea({ label, hint, errors, ...props }: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const ids = useFieldIds(hint, errors);
  return (
    <div className="field">
      <label htmlFor={ids.id}>{label}</label>
      <textarea id={ids.id} aria-invalid={errors?.length ? true : undefined} aria-describedby={ids.describedBy} {...props} />
      <FieldMessages hint={hint} hintId={ids.hintId} errors={errors} errorId={ids.errorId} />
    </div>
  );
}

export function SelectField({ label, hint, errors, children, ...props }: FieldProps & SelectHTMLAttributes<HTMLSelectElement>) {
  const ids = useFieldIds(hint, errors);
  return (
    <div className="field">
      <label htmlFor={ids.id}>{label}</label>
      <select id={ids.id} aria-invalid={errors?.length ? true : undefined} aria-describedby={ids.describedBy} {...props}>
        {children}
      </select>
      <FieldMessages hint={hint} hintId={ids.hintId} errors={errors} errorId={ids.errorId} />
    </div>
  );
}

export function Banner({ tone = 'info', children, live }: { tone?: 'info' | 'error' | 'warn' | 'ok'; children: ReactNode; live?: boolean }) {
  const role = tone === 'error' ? 'alert' : live ? 'status' : undefined;
  return (
    <div className={`banner banner-${tone}`} role={role}>
      {children}
    </div>
  );
}

export function Badge({ tone = 'neutral', children }: { tone?: 'neutral' | 'info' | 'ok' | 'warn' | 'danger'; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}

/** A page's heading; with `timeZones`, the page's times are said to be on those zones' clocks once, under it (decision 1682). */
export function PageHead({ title, actions, timeZones, deviceZone = false }: { title: ReactNode; actions?: ReactNode; timeZones?: readonly string[]; deviceZone?: boolean }) {
  return (
    <div className="page-head">
      {timeZones ? (
        <div>
          <h1>{title}</h1>
          <TimesNote zones={timeZones} device={deviceZone} />
        </div>
      ) : (
        <h1>{title}</h1>
      )}
      {actions ? <div className="row">{actions}</div> : null}
    </div>
  );
}

/** A modal dialog on the native <dialog>: focus moves in, Escape and the close button close it, focus returns. */
export function Dialog({ open, onClose, title, children }: { open: boolean; onClose: () => void; title: ReactNode; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={onClose}>
      {open ? (
        <div className="dialog-body">
          <h2 id={titleId}>{title}</h2>
          {children}
        </div>
      ) : null}
    </dialog>
  );
}

export function Loading({ label }: { label: string }) {
  return (
    <p role="status" className="muted">
      {label}
    </p>
  );
}
