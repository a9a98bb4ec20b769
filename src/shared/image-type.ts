// Raster images as clients send them (proof photos, a sender's logo): decoded from base64 and typed by their first
// bytes, never by what the client says (decision 1250). Raster formats only: an SVG is a document that can carry
// scripts, so every picture is a JPEG, PNG or WebP.

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The image type the bytes start with: JPEG (SOI marker), PNG (signature then IHDR), WebP (RIFF…WEBP VP8); else null. */
export function imageTypeOf(bytes: Buffer): ImageType | null {
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 16 && bytes.subarray(0, 8).equals(PNG) && bytes.toString('latin1', 12, 16) === 'IHDR') return 'image/png';
  if (bytes.length >= 16 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 15) === 'WEBPVP8') return 'image/webp';
  return null;
}

export type DecodedImage = { ok: true; bytes: Buffer; contentType: ImageType } | { ok: false; code: 'invalid_base64' | 'too_large' | 'not_an_image'; detail: string };

/**
 * A base64 image decoded and checked: strict base64 (line breaks allowed, as MIME encoders wrap), at most `maxBytes`
 * decoded (`maxWords` says so in the error), and one of the accepted image types by its bytes.
 */
export function decodeImage(base64: string, maxBytes: number, maxWords: string): DecodedImage {
  const compact = base64.replace(/[\r\n]/g, '');
  if (compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) {
    return { ok: false, code: 'invalid_base64', detail: 'is not base64' };
  }
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length > maxBytes) return { ok: false, code: 'too_large', detail: `is larger than ${maxWords}` };
  const contentType = imageTypeOf(bytes);
  if (!contentType) return { ok: false, code: 'not_an_image', detail: 'is not a JPEG, PNG or WebP image' };
  return { ok: true, bytes, contentType };
}
