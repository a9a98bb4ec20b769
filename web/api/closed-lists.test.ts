// The console's event lists against the server's catalog (src/events/catalog.ts): a type added there and not here
// fails this test (and `tsc -p web` once the client is regenerated).
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES as CATALOG } from '../../src/events/catalog.ts';
import { eventTypeLabels } from '../i18n/event-types.ts';
import { EVENT_TYPES, LIVE_EVENT_TYPES, SUBSCRIBABLE_EVENT_TYPES } from './closed-lists.ts';

describe('the console’s event lists', () => {
  it('lists every type of the catalog, in its order, each with an English and a German label', () => {
    expect([...EVENT_TYPES]).toEqual([...CATALOG]);
    expect(Object.keys(eventTypeLabels.en).sort()).toEqual([...CATALOG].sort());
    expect(Object.keys(eventTypeLabels.de).sort()).toEqual([...CATALOG].sort());
    for (const type of CATALOG) expect(eventTypeLabels.de[type], type).not.toBe(eventTypeLabels.en[type]);
  });

  it('offers webhooks every type but webhook.test, and follows every tour and booking type live', () => {
    expect(SUBSCRIBABLE_EVENT_TYPES).toEqual(CATALOG.filter((type) => type !== 'webhook.test'));
    expect(LIVE_EVENT_TYPES).toEqual(CATALOG.filter((type) => /^(tour|booking)\./.test(type)));
    expect(LIVE_EVENT_TYPES).toContain('booking.auto_dispatched');
  });
});
