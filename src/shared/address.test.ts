import { describe, expect, it } from 'vitest';
import { addressKey, normalizeStreet, splitStreetLine } from './address.ts';

describe('normalizeStreet', () => {
  it.each([
    ['Boulevard des Moulins', 'boulevard des moulins'],
    ['Bd des Moulins', 'boulevard des moulins'],
    ['BD. DES MOULINS', 'boulevard des moulins'],
    ['Av. de la Costa', 'avenue de la costa'],
    ['Avenue de la Costa', 'avenue de la costa'],
    ['Rue Émile de Loth', 'rue emile de loth'],
    ['Hauptstraße', 'hauptstrasse'],
    ['Hauptstr.', 'hauptstrasse'],
    ['Haupt Str.', 'haupt strasse'],
    ['  Rue   Grimaldi ', 'rue grimaldi'],
    ["Quai Antoine-Ier", 'quai antoine ier'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeStreet(input)).toBe(expected);
  });
});

describe('addressKey', () => {
  it('is the same for the same door written differently', () => {
    expect(addressKey({ street: 'Bd des Moulins', number: '12 B', zip_code: '98000', city: 'Monaco' })).toBe(
      addressKey({ street: 'boulevard des moulins', number: '12b', zip_code: '98000', city: 'MONACO' }),
    );
  });
  it('differs for another number, postcode or city', () => {
    const base = { street: 'Rue Grimaldi', number: '12', zip_code: '98000', city: 'Monaco' };
    expect(addressKey(base)).not.toBe(addressKey({ ...base, number: '14' }));
    expect(addressKey(base)).not.toBe(addressKey({ ...base, zip_code: '06240' }));
    expect(addressKey(base)).not.toBe(addressKey({ ...base, city: 'Beausoleil' }));
  });
  it('is null without a street', () => {
    expect(addressKey({ zip_code: '98000', city: 'Monaco' })).toBeNull();
    expect(addressKey({ street: ' - ', city: 'Monaco' })).toBeNull();
  });
});

describe('splitStreetLine', () => {
  it.each([
    ['12 Rue Grimaldi', 'Rue Grimaldi', '12'],
    ['Rue Grimaldi 12', 'Rue Grimaldi', '12'],
    ['Grimaldistraße 12a', 'Grimaldistraße', '12a'],
    ['12 bis, Boulevard Albert 1er', 'Boulevard Albert 1er', '12bis'],
    ['Hauptstr. 5-7', 'Hauptstr.', '5-7'],
    ['Place du Casino', 'Place du Casino', null],
  ])('%s → %s / %s', (line, street, number) => {
    expect(splitStreetLine(line)).toEqual({ street, number });
  });
});
