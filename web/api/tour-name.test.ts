import { describe, expect, it } from 'vitest';
import { tourName } from './tour-name.ts';

const naming = { driverName: (id: string) => (id === 'd1' ? 'Anna Adler' : undefined), day: (iso: string) => iso.slice(0, 10), noDriver: 'No driver yet' };

describe('tourName', () => {
  it('is the label, else the driver and the day, never the id', () => {
    const tour = { id: '0193b2e4-0c1d-7a2e-8f30-100bba45aaaa', driver_id: 'd1', scheduled_at: '2026-12-07T06:00:00Z', created_at: '2026-12-01T10:00:00Z' };
    expect(tourName({ ...tour, label: 'Monaco Nord' }, naming)).toBe('Monaco Nord');
    expect(tourName({ ...tour, label: '  ' }, naming)).toBe('Anna Adler · 2026-12-07');
    expect(tourName({ ...tour, driver_id: null, scheduled_at: null }, naming)).toBe('No driver yet · 2026-12-01');
    expect(tourName({ ...tour, driver_id: 'gone' }, naming)).toBe('No driver yet · 2026-12-07');
    expect(tourName(tour, naming)).not.toContain('100bba45');
  });
});
