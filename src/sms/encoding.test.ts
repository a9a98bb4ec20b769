import { describe, expect, it } from 'vitest';
import { smsEncoding } from './encoding.ts';

describe('SMS coding and segments', () => {
  it.each([
    ['', 'gsm7', 0, 1],
    ['Hallo Jürgen Groß, Ihre Lieferung ist eingeplant.', 'gsm7', 49, 1],
    ['a'.repeat(160), 'gsm7', 160, 1],
    ['a'.repeat(161), 'gsm7', 161, 2],
    ['a'.repeat(306), 'gsm7', 306, 2],
    ['a'.repeat(307), 'gsm7', 307, 3],
    ['Price: 5€ [x]', 'gsm7', 16, 1], // €, [ and ] take two septets each
    ['a'.repeat(159) + '€', 'gsm7', 161, 2],
    ['李雷', 'ucs2', 2, 1],
    ['14:00 – 16:00', 'ucs2', 13, 1], // the en dash is not GSM-7
    ['é'.repeat(70) + 'ł', 'ucs2', 71, 2],
    ['🙂', 'ucs2', 2, 1], // beyond the BMP: two UTF-16 units
  ])('%j is %s, %i units, %i segment(s)', (text, coding, units, segments) => {
    expect(smsEncoding(text)).toEqual({ coding, units, segments });
  });
});
