// The recipient's words without a database: which moment a sweep tells (decision 1108), and how a template is
// checked and filled (decision 1109).
import { describe, expect, it } from 'vitest';
import { DEFAULT_TEMPLATES, momentToTell, placeholderValues, renderTemplate, templateProblems, type MomentFacts } from './recipient-mail.ts';
import { RECIPIENT_LOCALES, RECIPIENT_MOMENTS, type RecipientMoment } from './tables.ts';

const now = new Date('2026-11-26T10:00:00Z');
const inMinutes = (m: number) => new Date(now.getTime() + m * 60_000);
const open = (over: Partial<MomentFacts> = {}): MomentFacts => ({ status: 'open', headingHere: false, enRoute: false, eta: null, ...over });
const ALL = [...RECIPIENT_MOMENTS];

describe('momentToTell', () => {
  it.each<[string, MomentFacts, RecipientMoment[], RecipientMoment[], RecipientMoment | null]>([
    ['on a planned tour: dispatched', open(), ALL, [], 'dispatched'],
    ['on a tour, dispatched not chosen', open(), ['on_its_way', 'delivered'], [], null],
    ['dispatched told once', open(), ALL, ['dispatched'], null],
    ['the driver heads here', open({ enRoute: true, headingHere: true, eta: inMinutes(30) }), ALL, ['dispatched'], 'on_its_way'],
    ['ETA within N, not yet next', open({ enRoute: true, eta: inMinutes(10) }), ALL, ['dispatched'], 'approaching'],
    ['ETA just past N', open({ enRoute: true, eta: inMinutes(11) }), ALL, ['dispatched'], null],
    ['ETA within N but the tour is not en route', open({ enRoute: false, eta: inMinutes(5) }), ['approaching'], [], null],
    ['both at once: only the later one', open({ enRoute: true, headingHere: true, eta: inMinutes(4) }), ALL, [], 'approaching'],
    ['heading here after approaching was told: nothing earlier', open({ enRoute: true, headingHere: true, eta: inMinutes(4) }), ALL, ['approaching'], null],
    ['approaching after on_its_way was told', open({ enRoute: true, headingHere: true, eta: inMinutes(4) }), ALL, ['on_its_way'], 'approaching'],
    ['on_its_way alone keeps working', open({ enRoute: true, headingHere: true, eta: inMinutes(4) }), ['on_its_way'], [], 'on_its_way'],
    ['delivered', { ...open(), status: 'completed' }, ALL, ['dispatched', 'approaching'], 'delivered'],
    ['failed after on its way', { ...open(), status: 'failed' }, ALL, ['on_its_way'], 'failed'],
    ['delivered not chosen: nothing, not an earlier moment', { ...open(), status: 'completed' }, ['dispatched'], [], null],
  ])('%s', (_name, facts, moments, told, expected) => {
    expect(momentToTell(facts, { moments, approachingMinutes: 10 }, new Set(told), now)).toBe(expected);
  });
});

describe('templates', () => {
  it("Tourbook's defaults pass their own check, in both languages", () => {
    for (const locale of RECIPIENT_LOCALES) for (const moment of RECIPIENT_MOMENTS) expect(templateProblems(moment, DEFAULT_TEMPLATES[locale][moment]), `${locale} ${moment}`).toEqual([]);
  });

  it.each([
    ['a placeholder the moment does not offer', 'dispatched', { subject: 'At {{eta}}', body: '{{tracking_url}}' }, [['subject', 'unknown_placeholder']]],
    ['an unknown one in the body', 'delivered', { subject: 'Done', body: '{{nmae}} {{tracking_url}}' }, [['body', 'unknown_placeholder']]],
    ['no tracking link', 'failed', { subject: 'Sorry', body: 'We try again {{next_attempt}}.' }, [['body', 'missing_placeholder']]],
    ['a brace left open', 'failed', { subject: 'Sorry {{name', body: '{{tracking_url}}' }, [['subject', 'unknown_placeholder']]],
    ['a subject on two lines', 'approaching', { subject: 'Soon\nreally', body: '{{ tracking_url }}' }, [['subject', 'invalid_value']]],
  ] as const)('refuses %s', (_name, moment, template, expected) => {
    expect(templateProblems(moment, template).map((p) => [p.field, p.code])).toEqual(expected);
  });

  const facts = {
    lang: 'de' as const,
    name: 'Erika Gabler',
    eta: new Date('2026-11-26T13:20:00Z'),
    timeWindow: { startsAt: new Date('2026-11-26T13:00:00Z'), endsAt: new Date('2026-11-26T15:00:00Z') },
    nextAttempt: null,
    proof: { recipientName: 'E. Gabler', photo: true },
    timeZone: 'Europe/Berlin',
    trackingUrl: 'https://track.example/track/abc',
  };

  it('fills placeholders in the area’s zone and language, and leaves out a line whose fact is missing', () => {
    const values = placeholderValues(facts);
    expect(values.eta).toMatch(/14:20/);
    expect(values.proof).toBe('Entgegengenommen von E. Gabler. Ein Foto der Zustellung finden Sie auf der Seite der Sendungsverfolgung.');
    const { subject, text } = renderTemplate({ subject: '{{name}}: gleich da', body: 'Hallo {{name}},\nGegen {{eta}}.\nNächster Versuch {{next_attempt}}.\n\n\n{{tracking_url}}' }, values);
    expect(subject).toBe('Erika Gabler: gleich da');
    expect(text).toMatch(/^Hallo Erika Gabler,\nGegen Do\.?,? 14:20 .*\.\n\nhttps:\/\/track\.example\/track\/abc$/);
  });

  it('drops the space before an empty name and never reads a value as a placeholder', () => {
    const values = placeholderValues({ ...facts, name: null });
    expect(renderTemplate({ subject: 'Hallo {{name}}', body: 'Hallo {{name}},\n{{tracking_url}}' }, values)).toEqual({ subject: 'Hallo', text: 'Hallo,\nhttps://track.example/track/abc' });
    const sneaky = placeholderValues({ ...facts, name: '{{tracking_url}}' });
    expect(renderTemplate({ subject: 'x', body: 'Hallo {{name}}' }, sneaky).text).toBe('Hallo {{tracking_url}}');
  });
});
