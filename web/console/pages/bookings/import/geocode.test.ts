import { describe, expect, it } from 'vitest';
import { geocodeAll, locatedOf, type GeocodeResult } from './geocode.ts';

const result = (precision: GeocodeResult['precision'], fuzzy = false): GeocodeResult => ({ label: precision, location: { lat: 43.73, lng: 7.42 }, precision, source: 'region', fuzzy });

describe('locatedOf', () => {
  it('places a row on the first result at house or street precision that is not fuzzy', () => {
    expect(locatedOf([result('house')]).result?.precision).toBe('house');
    expect(locatedOf([result('street', true), result('street')]).result?.fuzzy).toBe(false);
    expect(locatedOf([result('postcode'), result('city')])).toEqual({ result: null, closest: result('postcode') });
    expect(locatedOf([])).toEqual({ result: null, closest: null });
  });
});

describe('geocodeAll', () => {
  it('asks each distinct address once, never more than the limit at a time, and reports every answer', async () => {
    let inFlight = 0;
    let most = 0;
    const asked: string[] = [];
    const answers = new Map<string, unknown>();
    const queries = Array.from({ length: 40 }, (_, i) => `Rue ${i % 25}`);
    await geocodeAll(
      queries,
      async (q) => {
        asked.push(q);
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 2));
        inFlight--;
        if (q === 'Rue 3') throw new Error('lost');
        return q === 'Rue 4' ? [] : [result('house')];
      },
      (q, located) => answers.set(q, located),
      4,
    );
    expect(asked.length).toBe(25);
    expect(new Set(asked).size).toBe(25);
    expect(most).toBe(4);
    expect(answers.size).toBe(25);
    expect(answers.get('Rue 3')).toEqual({ result: null, closest: null, failed: true });
    expect(answers.get('Rue 4')).toEqual({ result: null, closest: null });
  });

  it('stops asking once cancelled', async () => {
    let asked = 0;
    let stop = false;
    await geocodeAll(Array.from({ length: 20 }, (_, i) => String(i)), async () => {
      if (++asked === 3) stop = true;
      return [];
    }, () => undefined, 1, () => stop);
    expect(asked).toBe(3);
  });
});
