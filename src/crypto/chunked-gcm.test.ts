import { randomBytes, createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES, CorruptBlobError, decryptStream, encryptStream, encryptedSize } from './chunked-gcm.ts';

const key = randomBytes(32);
const context = 'tenant-1|report-1';

/** Feeds `data` in pieces of `piece` bytes, as a socket or file stream would. */
function pieces(data: Buffer, piece: number): Readable {
  const parts: Buffer[] = [];
  for (let i = 0; i < data.length; i += piece) parts.push(data.subarray(i, i + piece));
  return Readable.from(parts.length ? parts : [Buffer.alloc(0)]);
}

async function encrypt(plain: Buffer, piece = 10_000, k = key, ctx = context) {
  const enc = encryptStream(k, ctx);
  const sealed = await buffer(pieces(plain, piece).pipe(enc));
  return { sealed, ...enc.result() };
}

async function decrypt(sealed: Buffer, piece = 7_000, k = key, ctx = context): Promise<Buffer> {
  return buffer(pieces(sealed, piece).pipe(decryptStream(k, ctx)));
}

describe('chunked AES-256-GCM', () => {
  it.each([0, 1, 100, CHUNK_BYTES - 1, CHUNK_BYTES, CHUNK_BYTES + 1, 2 * CHUNK_BYTES, 3 * CHUNK_BYTES + 17])(
    'round-trips %i bytes with the expected size, SHA-256 and no plaintext in the output',
    async (size) => {
      const plain = randomBytes(size);
      const { sealed, sha256, size: counted } = await encrypt(plain);
      expect(sealed.length).toBe(encryptedSize(size));
      expect(counted).toBe(size);
      expect(sha256).toBe(createHash('sha256').update(plain).digest('hex'));
      expect(await decrypt(sealed)).toEqual(plain);
      if (size >= 32) expect(sealed.includes(plain.subarray(0, 32))).toBe(false);
    },
  );

  const threeChunks = randomBytes(2 * CHUNK_BYTES + 500);
  const sealedBytes = CHUNK_BYTES + 16;
  const cases: [string, (sealed: Buffer) => Buffer, number][] = [
    ['a flipped header byte', (s) => flip(s, 0), 0],
    ['a flipped byte in the first chunk', (s) => flip(s, 4 + 10), 0],
    ['a flipped tag byte of the first chunk', (s) => flip(s, 4 + sealedBytes - 1), 0],
    ['a flipped byte in the second chunk', (s) => flip(s, 4 + sealedBytes + 5), 1],
    ['a flipped byte in the last chunk', (s) => flip(s, s.length - 20), 2],
    ['the last chunk cut off (truncation at a boundary)', (s) => s.subarray(0, 4 + 2 * sealedBytes), 1],
    ['the last byte cut off', (s) => s.subarray(0, s.length - 1), 2],
    ['a byte appended', (s) => Buffer.concat([s, Buffer.from([0])]), 2],
    ['the first two chunks swapped', (s) => Buffer.concat([s.subarray(0, 4), s.subarray(4 + sealedBytes, 4 + 2 * sealedBytes), s.subarray(4, 4 + sealedBytes), s.subarray(4 + 2 * sealedBytes)]), 0],
    ['everything but the header removed', (s) => s.subarray(0, 4), 0],
  ];
  it.each(cases)('refuses %s, naming the failing chunk', async (_name, tamper, chunk) => {
    const { sealed } = await encrypt(threeChunks);
    const error = await decrypt(tamper(sealed)).then(
      () => null,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(CorruptBlobError);
    expect((error as CorruptBlobError).chunk).toBe(chunk);
  });

  it.each([
    ['another key', randomBytes(32), context],
    ['another report id', key, 'tenant-1|report-2'],
    ['another tenant id', key, 'tenant-2|report-1'],
  ])('refuses to open with %s', async (_name, k, ctx) => {
    const { sealed } = await encrypt(randomBytes(1000));
    await expect(decrypt(sealed, 7_000, k, ctx)).rejects.toBeInstanceOf(CorruptBlobError);
  });

  it('never releases a chunk before it is authenticated: a bad second chunk yields exactly the first chunk', async () => {
    const { sealed } = await encrypt(threeChunks);
    const released: Buffer[] = [];
    const stream = pieces(flip(sealed, 4 + sealedBytes + 5), 4096).pipe(decryptStream(key, context));
    await expect(
      (async () => {
        for await (const chunk of stream) released.push(chunk as Buffer);
      })(),
    ).rejects.toBeInstanceOf(CorruptBlobError);
    expect(Buffer.concat(released)).toEqual(threeChunks.subarray(0, CHUNK_BYTES));
  });

  it('property: any plaintext round-trips whatever the piece sizes on both sides', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 3 * CHUNK_BYTES }), fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 100_000 }), async (bytes, inPiece, outPiece) => {
        const plain = Buffer.from(bytes);
        const { sealed } = await encrypt(plain, inPiece);
        expect(await decrypt(sealed, outPiece)).toEqual(plain);
      }),
      { numRuns: 40 },
    );
  });

  it('property: flipping any single bit of the sealed file fails to open', async () => {
    const { sealed } = await encrypt(randomBytes(CHUNK_BYTES + 300));
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: sealed.length - 1 }), fc.integer({ min: 0, max: 7 }), async (at, bit) => {
        const tampered = Buffer.from(sealed);
        tampered[at]! ^= 1 << bit;
        await expect(decrypt(tampered)).rejects.toBeInstanceOf(CorruptBlobError);
      }),
      { numRuns: 200 },
    );
  });
});

function flip(data: Buffer, at: number): Buffer {
  const copy = Buffer.from(data);
  copy[at]! ^= 0x01;
  return copy;
}
