// The booking timeline's details in words (decision 1662): statuses, a failure's outcome and reason, auto-dispatch's
// reason — never a key — in English and German.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LangProvider } from '../../../i18n/index.tsx';
import { EventDetail } from './event-detail.tsx';

const render = (lang: 'en' | 'de', type: string, data: Record<string, unknown>, reasons?: Map<string, string>) =>
  renderToStaticMarkup(
    <LangProvider initial={lang}>
      <EventDetail event={{ type: type as 'booking.created', data }} reasons={reasons} />
    </LangProvider>,
  );

describe('the booking timeline’s details', () => {
  it('names a status change by its statuses', () => {
    expect(render('en', 'booking.transition', { from: 'to_be_dispatched', to: 'dispatched' })).toBe('<div>Waiting for dispatch → Dispatched</div>');
    expect(render('de', 'booking.transition', { from: 'to_be_dispatched', to: 'dispatched' })).toBe('<div>Wartet auf Disposition → Disponiert</div>');
  });

  it('names a failure’s reason in the page’s language and its outcome, with the driver’s note', () => {
    const failed = { outcome: 'reattempt_later', failure_reason: { key: 'customer_absent', label: 'Nobody present', note: 'Rang twice' } };
    const de = render('de', 'booking.stop_failed', failed, new Map([['customer_absent', 'Niemand angetroffen']]));
    expect(de).toContain('Grund: Niemand angetroffen · später erneut versuchen');
    expect(de).toContain('Notiz des Fahrers: Rang twice');
    expect(de).not.toContain('customer_absent');
    expect(de).not.toContain('reattempt_later');
    // Before the reasons have loaded: the event's own (English) label, never the key.
    expect(render('en', 'booking.stop_failed', failed)).toContain('Reason: Nobody present · reattempt later');
    expect(render('en', 'booking.stop_failed', { outcome: 'skip_recovery', failure_reason: { key: null, label: null, note: null } })).toBe('<div>Reason: none given · no recovery</div>');
  });

  it('says why auto-dispatch left the booking waiting, and nothing for a type that says it all', () => {
    expect(render('de', 'booking.auto_dispatch_skipped', { reason: 'no_fit', constraint: 'capacity' })).toBe('<div>Wartet: keine Tour passt (Fahrzeugkapazität)</div>');
    expect(render('en', 'booking.created', {})).toBe('');
  });

  it("says the recipient's instructions and moved day in words (decision 1788)", () => {
    const given = { instructions: { kind: 'neighbour', neighbour: 'Mme Rossi', note: 'Code 4711' } };
    expect(render('en', 'booking.recipient_instructions_updated', given)).toBe('<div>Give it to a neighbour: Mme Rossi · Code 4711</div>');
    expect(render('de', 'booking.recipient_instructions_updated', { instructions: { kind: 'leave_at_door', neighbour: null, note: null } })).toBe('<div>Vor der Tür abstellen</div>');
    expect(render('en', 'booking.delivery_date_changed', { from_date: '2026-06-02', to_date: '2026-06-04' })).toMatch(/^<div>Moved by the recipient from .*2.* to .*4.*<\/div>$/);
    expect(render('de', 'booking.delivery_date_changed', { from_date: 'yesterday', to_date: '2026-06-04' })).toContain('Vom Empfänger verschoben von ');
  });
});
