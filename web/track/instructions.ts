// The recipient's instructions for the driver (docs/tracking.md "Instructions", decision 1788): read through the
// token, offered as a small form while the recipient's own stop is open, said in words once it is done. Plain DOM,
// like the rest of the page's script.
import { element } from './dom.ts';
import { trackText, type TrackLang, type TrackMessage } from './view.ts';

export type InstructionKind = 'none' | 'leave_at_door' | 'neighbour';

export interface Instructions {
  kind: InstructionKind;
  neighbour: string | null;
  note: string | null;
  updated_at: string | null;
  editable: boolean;
}

interface Problem {
  detail?: string;
  errors?: { pointer: string; detail: string }[];
}

const KINDS: readonly InstructionKind[] = ['none', 'leave_at_door', 'neighbour'];

/** The section and what the page's script does with it: load it once, and again when the recipient's stop is done. */
export function instructionsPart(api: string, lang: TrackLang, time: (iso: string) => string) {
  const t = (key: TrackMessage, params?: Record<string, string | number>) => trackText(lang, key, params);
  const headers = { accept: 'application/json', 'accept-language': lang };
  const section = element('section', { className: 'track-instructions', hidden: true });
  section.setAttribute('aria-labelledby', 'track-instructions-title');
  let shown: Instructions | null = null;

  const title = () => element('h2', { id: 'track-instructions-title' }, t('instructionsTitle'));

  /** Once nothing may change: what the driver was told, in words (nothing when nothing was asked). */
  function renderGiven(given: Instructions): void {
    section.hidden = given.kind === 'none';
    const lines = [element('p', {}, t('instructionsGiven', { kind: t(`instructions.${given.kind}`) }))];
    if (given.neighbour) lines.push(element('p', {}, t('instructionsNeighbour', { name: given.neighbour })));
    if (given.note) lines.push(element('p', {}, t('instructionsNote', { note: given.note })));
    section.replaceChildren(title(), ...lines);
  }

  function renderForm(given: Instructions, saved: string | null = null): void {
    section.hidden = false;
    const form = element('form', { noValidate: true });
    const fieldset = element('fieldset', {}, element('legend', {}, t('ifAbsent')));
    const radios = KINDS.map((kind) => {
      const input = element('input', { type: 'radio', name: 'kind', value: kind, checked: given.kind === kind });
      fieldset.append(element('label', {}, input, ` ${t(`instructions.${kind}`)}`));
      return input;
    });
    const neighbour = element('input', { id: 'track-neighbour', type: 'text', maxLength: 120, autocomplete: 'off', value: given.neighbour ?? '' });
    const neighbourError = element('p', { id: 'track-neighbour-error', className: 'track-failure' });
    const note = element('textarea', { id: 'track-note', maxLength: 500, rows: 2, value: given.note ?? '' });
    const button = element('button', { type: 'submit' }, t('saveInstructions'));
    const status = element('p', { className: 'track-muted' }, saved ?? '');
    status.setAttribute('role', 'status');
    const error = element('p', { className: 'track-failure' });
    error.setAttribute('role', 'alert');
    const neighbourField = element('div', { className: 'track-neighbour' }, element('label', { htmlFor: neighbour.id }, t('neighbour')), neighbour, neighbourError);
    // The neighbour's field belongs to its choice: hidden, and not sent, with the others.
    const choose = () => {
      neighbourField.hidden = !radios[2]!.checked;
    };
    for (const radio of radios) radio.addEventListener('change', choose);
    choose();
    form.append(fieldset, neighbourField, element('label', { htmlFor: note.id }, t('note')), note, button, status, error);

    const showFieldError = (detail: string | null) => {
      neighbourError.textContent = detail ?? '';
      if (detail) {
        neighbour.setAttribute('aria-invalid', 'true');
        neighbour.setAttribute('aria-describedby', neighbourError.id);
      } else {
        neighbour.removeAttribute('aria-invalid');
        neighbour.removeAttribute('aria-describedby');
      }
    };
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const kind = radios.find((r) => r.checked)?.value ?? 'none';
      button.disabled = true;
      error.textContent = '';
      showFieldError(null);
      const body = { instructions: { kind, note: note.value, ...(kind === 'neighbour' ? { neighbour: neighbour.value } : {}) } };
      void fetch(`${api}/instructions`, { method: 'PUT', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) })
        .then(async (res) => {
          const answer = (await res.json()) as { instructions?: Instructions } & Problem;
          if (res.ok && answer.instructions) return show(answer.instructions, t('instructionsSaved', { at: time(answer.instructions.updated_at ?? new Date().toISOString()) }), true);
          const atNeighbour = answer.errors?.find((e) => e.pointer === '/instructions/neighbour');
          if (atNeighbour) {
            showFieldError(atNeighbour.detail);
            neighbour.focus();
          } else error.textContent = t('failedInstructions', { reason: answer.errors?.[0]?.detail ?? answer.detail ?? String(res.status) });
          button.disabled = false;
          // A delivery finished meanwhile (409): the section says so in words, from the read.
          if (res.status === 409) void load();
        })
        .catch((err: unknown) => {
          error.textContent = t('failedInstructions', { reason: err instanceof Error ? err.message : String(err) });
          button.disabled = false;
        });
    });
    section.replaceChildren(title(), form);
  }

  function show(given: Instructions, saved: string | null = null, keepFocus = false): void {
    shown = given;
    if (!given.editable) return renderGiven(given);
    renderForm(given, saved);
    if (keepFocus) section.querySelector<HTMLButtonElement>('button[type=submit]')?.focus();
  }

  async function load(): Promise<void> {
    const res = await fetch(`${api}/instructions`, { headers }).catch(() => null);
    if (res?.ok) show(((await res.json()) as { instructions: Instructions }).instructions);
  }

  return {
    element: section,
    load,
    /** The live read says whether the recipient's stop is still open: once it is not, the form gives way to words. */
    stopOpen(open: boolean): void {
      if (shown?.editable && !open) void load();
    },
  };
}
