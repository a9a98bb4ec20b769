// A file's bytes → text, in the encoding the file was saved in: a byte order mark names UTF-8 or UTF-16 (LE/BE);
// without one the bytes are read as UTF-8 when they are valid UTF-8, else as Windows-1252, the encoding older
// spreadsheets save in (a superset of Latin-1), and the preview says so (decision 1580). The browser's TextDecoder
// decodes; `fatal: true` makes invalid UTF-8 an error instead of U+FFFD.

export type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface Decoded {
  text: string;
  encoding: Encoding;
  /** True when the encoding was not named by a byte order mark and UTF-8 did not fit: the preview says so. */
  guessed: boolean;
}

function bomOf(bytes: Uint8Array): { encoding: Encoding; length: number } | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return null;
}

export function decodeBytes(input: ArrayBuffer | Uint8Array): Decoded {
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  const bom = bomOf(bytes);
  if (bom) {
    // A file that names its encoding and breaks it is unreadable (the caller says so); guessing would garble rows.
    return { text: new TextDecoder(bom.encoding, { fatal: true }).decode(bytes.subarray(bom.length)), encoding: bom.encoding, guessed: false };
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8', guessed: false };
  } catch {
    // Every byte is a character in Windows-1252 (the WHATWG decoder maps the five unassigned ones to C1 controls).
    return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252', guessed: true };
  }
}
