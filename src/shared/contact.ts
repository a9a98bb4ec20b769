// A stop's or place's contact as it is accepted (contract §14, decision 1561): the e-mail must be an e-mail address,
// the phone number is stored in E.164, read in the service area's country when written without "+".
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { getCountries } from 'libphonenumber-js';

/**
 * The WHATWG HTML rule for `<input type=email>` ("a valid e-mail address"): what every browser accepts in such a
 * field, so the console's form and the API agree. It is deliberately simpler than RFC 5322 (no quoted local parts, no
 * comments), and requires no dot in the domain, as the rule does.
 */
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** Longer than RFC 5321 allows a path to be (254 characters): no mail server takes it. */
const EMAIL_MAX_LENGTH = 254;

export function isEmailAddress(text: string): boolean {
  return text.length <= EMAIL_MAX_LENGTH && EMAIL.test(text);
}

const COUNTRIES: ReadonlySet<string> = new Set(getCountries());

/** Whether `code` is an ISO 3166-1 alpha-2 code that has telephone numbering (libphonenumber's list). */
export function isPhoneCountry(code: string): code is CountryCode {
  return COUNTRIES.has(code);
}

export type PhoneReading = { ok: true; e164: string } | { ok: false; detail: string };

/**
 * `text` as an E.164 number (`+37793158000`): with "+" (or "00") it carries its own country; without, it is read in
 * `country` (the service area's `country_code`). A number that is not valid for its country is refused.
 */
export function phoneNumberToE164(text: string, country: string | null | undefined): PhoneReading {
  const trimmed = text.trim();
  const international = trimmed.startsWith('+') || trimmed.startsWith('00');
  if (!international && !(country && isPhoneCountry(country))) {
    return { ok: false, detail: 'has no country code (+…) and the service area has no country_code to read it in' };
  }
  const defaultCountry = !international && country && isPhoneCountry(country) ? country : undefined;
  const parsed = parsePhoneNumberFromString(trimmed.startsWith('00') ? `+${trimmed.slice(2)}` : trimmed, defaultCountry);
  if (!parsed || !parsed.isValid()) return { ok: false, detail: 'is not a valid phone number' };
  return { ok: true, e164: parsed.number };
}

export interface ContactFields {
  name?: string | null;
  phone_number?: string | null;
  email?: string | null;
  locale?: string | null;
}

export interface ContactFieldError {
  pointer: string;
  code: string;
  detail: string;
}

/**
 * The contact as stored (phone number in E.164, e-mail as given) and every field it refuses, at `pointer`/<field>.
 * An empty string is no value: stored as null.
 */
export function checkContact<C extends ContactFields>(contact: C, country: string | null | undefined, pointer: string): { contact: C; errors: ContactFieldError[] } {
  const errors: ContactFieldError[] = [];
  const out: C = { ...contact };
  if (typeof contact.email === 'string') {
    const email = contact.email.trim();
    if (email === '') out.email = null;
    else if (!isEmailAddress(email)) errors.push({ pointer: `${pointer}/email`, code: 'invalid_email', detail: 'is not an e-mail address' });
    else out.email = email;
  }
  if (typeof contact.phone_number === 'string') {
    if (contact.phone_number.trim() === '') out.phone_number = null;
    else {
      const reading = phoneNumberToE164(contact.phone_number, country);
      if (reading.ok) out.phone_number = reading.e164;
      else errors.push({ pointer: `${pointer}/phone_number`, code: 'invalid_phone_number', detail: reading.detail });
    }
  }
  return { contact: out, errors };
}
