import { describe, expect, it } from 'vitest';
import { distanceMetres, formatDate, renderMap, renderSender, renderTracking, type TrackingView } from './view.ts';

const time = (iso: string) => iso.slice(11, 16);

const view = (overrides: Partial<TrackingView> = {}, stop: Partial<TrackingView['stops'][number]> = {}): TrackingView => ({
  booking_status: 'dispatched',
  sender: { name: 'Spree Kurier', logo_url: null },
  stops: [
    {
      kind: 'dropoff',
      status: 'scheduled',
      time_window: null,
      eta: null,
      eta_window: null,
      completed_at: null,
      failure: null,
      next_attempt: null,
      proof: null,
      ...stop,
    },
  ],
  driver: null,
  stops_before_yours: null,
  feedback: null,
  ...overrides,
});

describe('the tracking view', () => {
  it('draws the map only while the position is shown, labelled with the distance to the stop', () => {
    const stop = { lat: 52.52, lng: 13.405 };
    expect(renderTracking(view({ driver: { first_name: 'Erika', position: null } }), 'en', time, stop)).not.toContain('<svg');
    const html = renderTracking(view({ driver: { first_name: 'Erika', position: { lat: 52.51, lng: 13.405, recorded_at: '2026-01-01T10:00:00Z' } } }), 'en', time, stop);
    expect(html).toContain('<svg');
    expect(html).toContain('aria-label="Map: the driver is 1.1 km from your stop."');
    expect(renderMap({ lat: 52.51, lng: 13.405 }, stop, 'de')).toContain('Karte: die Fahrerin oder der Fahrer ist 1,1 km von Ihrem Stopp entfernt.');
    // Without the stop (no open drop-off) the driver alone.
    expect(renderMap({ lat: 52.51, lng: 13.405 }, null, 'en')).toContain('Map: where the driver is.');
    // Both points land inside the box, also when they coincide.
    for (const svg of [renderMap(stop, stop, 'en'), renderMap({ lat: 52.4, lng: 13.2 }, stop, 'en')]) {
      for (const [, x, y] of svg.matchAll(/c?[xy]="([\d.-]+)" c?y="([\d.-]+)"/g)) {
        expect(Number(x)).toBeGreaterThanOrEqual(0);
        expect(Number(x)).toBeLessThanOrEqual(320);
        expect(Number(y)).toBeGreaterThanOrEqual(0);
        expect(Number(y)).toBeLessThanOrEqual(180);
      }
    }
    expect(Math.round(distanceMetres({ lat: 52.51, lng: 13.405 }, stop))).toBe(1112);
  });

  it('links the proof photo when the read has one, and never a script URL', () => {
    const done = { status: 'completed', completed_at: '2026-01-01T10:00:00Z' };
    const withPhoto = renderTracking(view({}, { ...done, proof: { recipient_name: 'Ada', photo_url: '/api/tracking/abc/proof/photo' } }), 'en', time);
    expect(withPhoto).toContain('<a class="track-photo" href="/api/tracking/abc/proof/photo" rel="noreferrer" target="_blank">Photo of the delivery</a>');
    expect(renderTracking(view({}, { ...done, proof: { recipient_name: 'Ada', photo_url: null } }), 'en', time)).not.toContain('track-photo');
    const hostile = renderTracking(view({}, { ...done, proof: { recipient_name: null, photo_url: 'javascript:alert(1)' } }), 'de', time);
    expect(hostile).not.toContain('javascript:');
    const quoted = renderTracking(view({}, { ...done, proof: { recipient_name: null, photo_url: 'https://x.test/p?a="><script>' } }), 'de', time);
    expect(quoted).toContain('href="https://x.test/p?a=&quot;&gt;&lt;script&gt;"');
    expect(quoted).toContain('Foto der Zustellung');
  });

  it('shows only the recipient’s own stop, with its date and address', () => {
    const pickup = { kind: 'pickup' as const, status: 'completed', time_window: null, eta: null, eta_window: null, completed_at: '2026-11-22T09:00:00Z', failure: null, next_attempt: null, proof: null };
    const own = { address: { street: 'Torstraße', number: '2', zip_code: '10119', city: 'Berlin' }, date: '2026-11-24' };
    const both = view({}, own);
    both.stops.unshift(pickup);
    const html = renderTracking(both, 'de', time);
    expect(html).not.toContain('Abholung');
    expect(html).toContain('Torstraße 2, 10119 Berlin');
    expect(html).toContain('Dienstag, 24. November 2026');
    expect(formatDate('en', '2026-11-24')).toBe('Tuesday, 24 November 2026');
    // A pickup-only booking (no address on any stop from an older server either): every stop is shown.
    expect(renderTracking({ ...view(), stops: [pickup] }, 'en', time)).toContain('Pickup');
  });

  it('names the sender and shows its logo only from an address the server made', () => {
    expect(renderSender({ name: 'Spree Kurier', logo_url: 'https://track.example/api/tracking/abc/logo?v=1' }, 'en')).toContain('<img class="track-logo" src="/api/tracking/abc/logo?v=1" alt="Logo of Spree Kurier"');
    expect(renderSender({ name: 'Spree Kurier', logo_url: '//evil.example/api/x' }, 'en')).not.toContain('<img');
    expect(renderSender({ name: 'Spree <b>', logo_url: 'javascript:alert(1)' }, 'de')).toBe('<header class="track-sender"><p class="track-sender-name">Von Spree &lt;b&gt;</p></header>');
  });
});
