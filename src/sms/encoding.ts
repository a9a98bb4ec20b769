// How an SMS text travels (decision 1765): GSM 03.38's 7-bit alphabet when every character has a place in it, else
// UCS-2; and how many segments that costs (160/153 septets, 70/67 UCS-2 characters). Pure.

/** GSM 03.38's basic table, and its extension table (each of those costs two septets: escape + character). */
const GSM7_BASIC = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENSION = '^{}\\[~]|€\f';
const BASIC = new Set(GSM7_BASIC);
const EXTENSION = new Set(GSM7_EXTENSION);

export type SmsCoding = 'gsm7' | 'ucs2';

export interface SmsEncoding {
  coding: SmsCoding;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2). */
  units: number;
  segments: number;
}

/** The coding a text goes out in and what it costs. An empty text is one segment. */
export function smsEncoding(text: string): SmsEncoding {
  let septets = 0;
  for (const ch of text) {
    if (BASIC.has(ch)) septets += 1;
    else if (EXTENSION.has(ch)) septets += 2;
    else {
      // UCS-2 counts UTF-16 units: a character beyond the BMP (an emoji) takes two.
      const units = text.length;
      return { coding: 'ucs2', units, segments: units <= 70 ? 1 : Math.ceil(units / 67) };
    }
  }
  return { coding: 'gsm7', units: septets, segments: septets <= 160 ? 1 : Math.ceil(septets / 153) };
}
