import { describe, expect, it } from 'vitest';
import { jpegLike, pngImage } from '../../../../test/proof-images.ts';
import { decodeProofImage, imageTypeOf, MAX_PROOF_IMAGE_BYTES } from './image-type.ts';

const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x1a, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(16)]);

describe('imageTypeOf', () => {
  it('tells JPEG, PNG and WebP by their first bytes', () => {
    expect(imageTypeOf(jpegLike(10))).toBe('image/jpeg');
    expect(imageTypeOf(pngImage(1, 1, [1, 2, 3]))).toBe('image/png');
    expect(imageTypeOf(webp)).toBe('image/webp');
  });

  it('refuses SVG, GIF, HTML, a bare PNG signature, a RIFF that is not WebP and nothing', () => {
    for (const bytes of [
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      Buffer.from('GIF89a\x01\x00\x01\x00'),
      Buffer.from('<html><body>hi</body></html>'),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt '), Buffer.alloc(8)]),
      Buffer.from([0xff, 0xd8]),
      Buffer.alloc(0),
    ]) {
      expect(imageTypeOf(bytes)).toBeNull();
    }
  });
});

describe('decodeProofImage', () => {
  it('accepts up to 5 MiB decoded, base64 wrapped in lines too', () => {
    const atLimit = decodeProofImage(jpegLike(MAX_PROOF_IMAGE_BYTES).toString('base64'));
    expect(atLimit).toMatchObject({ ok: true, contentType: 'image/jpeg' });
    const wrapped = pngImage(3, 3, [9, 9, 9]).toString('base64').replace(/(.{76})/g, '$1\r\n');
    expect(decodeProofImage(wrapped)).toMatchObject({ ok: true, contentType: 'image/png' });
  });

  it('names what is wrong: too large, not base64, not an image', () => {
    expect(decodeProofImage(jpegLike(MAX_PROOF_IMAGE_BYTES + 1).toString('base64'))).toMatchObject({ ok: false, code: 'too_large' });
    expect(decodeProofImage('abc')).toMatchObject({ ok: false, code: 'invalid_base64' });
    expect(decodeProofImage('ab$=')).toMatchObject({ ok: false, code: 'invalid_base64' });
    expect(decodeProofImage(Buffer.from('plain text').toString('base64'))).toMatchObject({ ok: false, code: 'not_an_image' });
  });
});
