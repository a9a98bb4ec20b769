// The recipient's later day (docs/tracking.md "A later day", decision 1788): where the sender offers it, the page lets
// the recipient move the delivery once to one of the days offered, after a confirmation, and says afterwards that it
// did. Plain DOM, like the rest of the page's script.
import { element } from './dom.ts';
import { formatDate, trackText, type TrackLang, type TrackMessage } from './view.ts';

export interface DeliveryDate {
  date: string | null;
  options: string[];
  changeable: boolean;
  closed_reason: string | null;
  moved_from: string | null;
}

/** The section and what the page's script does with it: load it once, and again when the booking changes. */
export function deliveryDatePart(api: string, lang: TrackLang) {
  const t = (key: TrackMessage, params?: Record<string, string | number>) => trackText(lang, key, params);
  const day = (date: string) => formatDate(lang, date);
  const headers = { accept: 'application/json', 'accept-language': lang };
  const section = element('section', { className: 'track-day', hidden: true });
  section.setAttribute('aria-labelledby', 'track-day-title');
  let shown: DeliveryDate | null = null;
  let lastStatuses = '';

  const title = () => element('h2', { id: 'track-day-title' }, t('dayTitle'));

  function show(current: DeliveryDate, focus = false): void {
    shown = current;
    if (current.moved_from && current.date) {
      section.hidden = false;
      const said = element('p', { tabIndex: -1 }, t('dayMoved', { from: day(current.moved_from), to: day(current.date) }));
      section.replaceChildren(title(), said);
      if (focus) said.focus();
      return;
    }
    if (!current.changeable || !current.date || !current.options.length) {
      section.hidden = true;
      section.replaceChildren();
      return;
    }
    section.hidden = false;
    const form = element('form');
    const select = element('select', { id: 'track-day' });
    for (const option of current.options) select.append(element('option', { value: option }, day(option)));
    const choose = element('button', { type: 'submit' }, t('dayMove'));
    const error = element('p', { className: 'track-failure' });
    error.setAttribute('role', 'alert');
    form.append(element('p', {}, t('dayIntro', { date: day(current.date) })), element('label', { htmlFor: select.id }, t('dayLabel')), select, choose, error);

    // Once per booking: the choice is said again and confirmed before it is sent.
    const confirm = element('div', { className: 'track-confirm', hidden: true });
    const question = element('p', { id: 'track-day-question' });
    const yes = element('button', { type: 'button' }, t('dayConfirm'));
    const no = element('button', { type: 'button', className: 'track-secondary' }, t('dayKeep'));
    confirm.setAttribute('role', 'group');
    confirm.setAttribute('aria-labelledby', question.id);
    confirm.append(question, yes, no);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      question.textContent = t('dayQuestion', { date: day(select.value) });
      confirm.hidden = false;
      choose.disabled = true;
      select.disabled = true;
      yes.focus();
    });
    no.addEventListener('click', () => {
      confirm.hidden = true;
      choose.disabled = false;
      select.disabled = false;
      select.focus();
    });
    yes.addEventListener('click', () => {
      yes.disabled = true;
      error.textContent = '';
      void fetch(`${api}/delivery_date`, {
        method: 'PUT',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ delivery_date: { date: select.value } }),
      })
        .then(async (res) => {
          const body = (await res.json()) as { delivery_date?: DeliveryDate; detail?: string; errors?: { detail: string }[] };
          if (res.ok && body.delivery_date) return show(body.delivery_date, true);
          throw new Error(body.errors?.[0]?.detail ?? body.detail ?? String(res.status));
        })
        .catch((err: unknown) => {
          confirm.hidden = true;
          choose.disabled = false;
          select.disabled = false;
          yes.disabled = false;
          error.textContent = t('dayFailed', { reason: err instanceof Error ? err.message : String(err) });
        });
    });
    section.replaceChildren(title(), form, confirm);
  }

  async function load(): Promise<void> {
    const res = await fetch(`${api}/delivery_date`, { headers }).catch(() => null);
    if (res?.ok) show(((await res.json()) as { delivery_date: DeliveryDate }).delivery_date);
  }

  return {
    element: section,
    load,
    /** The live read's stop statuses moved on (a driver set out): an offer still shown may have closed. */
    changed(statuses: string): void {
      if (shown?.changeable && lastStatuses && statuses !== lastStatuses) void load();
      lastStatuses = statuses;
    },
  };
}
