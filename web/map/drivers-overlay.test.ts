import { describe, expect, it } from 'vitest';
import { drawingOrder, pickPlaced, type DriverMarker, type Placed } from './drivers-overlay.ts';

const marker = (driverId: string, selected = false): DriverMarker => ({ driverId, tourId: `tour-${driverId}`, lng: 13.4, lat: 52.5, signal: 'live', selected });
const placed = (...entries: [DriverMarker, number, number][]): Placed => ({
  markers: entries.map(([m]) => m),
  x: entries.map(([, x]) => x),
  y: entries.map(([, , y]) => y),
});

describe('the drivers overlay', () => {
  it('draws the driver of the selected tour last, so no other marker covers it, and keeps the others in order', () => {
    const [a, b, c] = [marker('a'), marker('b', true), marker('c')];
    expect(drawingOrder([a, b, c]).map((m) => m.driverId)).toEqual(['a', 'c', 'b']);
  });

  it('picks the marker under the point, the one drawn last where two overlap', () => {
    const [a, b] = [marker('a'), marker('b')];
    const both = placed([a, 100, 100], [b, 106, 100]);
    expect(pickPlaced(both, 103, 100)?.driverId).toBe('b');
    expect(pickPlaced(both, 90, 100)?.driverId).toBe('a');
  });

  it('reaches the ring of a marker and a few pixels beyond it, and nothing farther', () => {
    const one = placed([marker('a'), 100, 100]);
    // radius 7 and a 3 px ring: 10 px, plus 3 px of slop
    expect(pickPlaced(one, 113, 100)?.driverId).toBe('a');
    expect(pickPlaced(one, 100, 87)?.driverId).toBe('a');
    expect(pickPlaced(one, 114, 100)).toBeNull();
    expect(pickPlaced(one, 110, 110)).toBeNull();
  });

  it('gives the larger marker of the selected driver its larger reach', () => {
    const one = placed([marker('a', true), 100, 100]);
    expect(pickPlaced(one, 116, 100)?.driverId).toBe('a');
    expect(pickPlaced(one, 117, 100)).toBeNull();
  });

  it('picks nothing when nothing is drawn', () => {
    expect(pickPlaced(placed(), 0, 0)).toBeNull();
  });
});
