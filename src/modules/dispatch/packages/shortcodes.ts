// Package shortcodes: 8 characters a driver can read aloud and type without confusing 0/O or 1/I/L.
import { randomInt } from 'node:crypto';

export const SHORTCODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const SHORTCODE_LENGTH = 8;

export function newShortcode(): string {
  let code = '';
  for (let i = 0; i < SHORTCODE_LENGTH; i++) code += SHORTCODE_ALPHABET[randomInt(SHORTCODE_ALPHABET.length)];
  return code;
}

/** Lookups forgive case and surrounding blanks. */
export const normalizeShortcode = (input: string): string => input.trim().toUpperCase();
