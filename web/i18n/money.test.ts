import { describe, expect, it } from 'vitest';
import { amountInput, parseAmount } from './money.ts';

describe('amounts typed by people', () => {
  it.each([
    ['12.50', 'EUR', 1250],
    ['12,50', 'EUR', 1250],
    ['12', 'EUR', 1200],
    ['12.5', 'EUR', 1250],
    ['1.234,50', 'EUR', 123450],
    ['1,234.50', 'EUR', 123450],
    ['1 234,50', 'EUR', 123450],
    ['1.234', 'EUR', 123400],
    ['500', 'JPY', 500],
    ['0,05', 'EUR', 5],
  ])('reads %s %s as %i minor units', (text, currency, minor) => {
    expect(parseAmount(text, currency)).toBe(minor);
  });

  it.each(['', 'abc', '-5', '12.50.1x', '€12'])('refuses %j', (text) => {
    expect(parseAmount(text, 'EUR')).toBeNull();
  });

  it('writes minor units back with the language decimal mark', () => {
    expect(amountInput(1250, 'EUR', 'de')).toBe('12,50');
    expect(amountInput(1250, 'EUR', 'en')).toBe('12.50');
    expect(amountInput(500, 'JPY', 'en')).toBe('500');
    expect(parseAmount(amountInput(123456, 'EUR', 'de'), 'EUR')).toBe(123456);
  });
});
