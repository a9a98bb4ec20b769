// The booking timeline says in words why a recipient e-mail was not sent (issue 35, decision 1622), in both languages.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LangProvider } from '../../../i18n/index.tsx';
import { RecipientMailNote } from './recipient-mail-note.tsx';

const render = (lang: 'en' | 'de', data: unknown, type = 'booking.recipient_notification_due') =>
  renderToStaticMarkup(
    <LangProvider initial={lang}>
      <RecipientMailNote event={{ type, data }} />
    </LangProvider>,
  );

describe('the recipient e-mail note on the booking timeline', () => {
  it('says why it was not sent, in English and German', () => {
    expect(render('en', { email_sent: false, email_not_sent: 'invalid_address' })).toContain('No e-mail sent: the drop-off’s e-mail address is not a valid address.');
    expect(render('de', { email_sent: false, email_not_sent: 'invalid_address' })).toContain('Keine E-Mail gesendet: Die E-Mail-Adresse der Zustellung ist keine gültige Adresse.');
    for (const reason of ['no_address', 'unsubscribed', 'no_tracking_link']) {
      for (const lang of ['en', 'de'] as const) expect(render(lang, { email_sent: false, email_not_sent: reason })).toMatch(/^<div role="note">(No e-mail sent|Keine E-Mail gesendet): /);
    }
  });

  it('says it was sent when it was, and nothing under other events', () => {
    expect(render('en', { email_sent: true, email_not_sent: null })).toBe('<div>E-mail sent to the recipient.</div>');
    expect(render('en', { email_sent: false, email_not_sent: 'invalid_address' }, 'booking.created')).toBe('');
  });
});
