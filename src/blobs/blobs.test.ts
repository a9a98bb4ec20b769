import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Peer, type S3Peer } from '../../test/s3-server.ts';
import { localBlobStore } from './local.ts';
import { s3BlobStore } from './s3.ts';
import type { BlobStore } from './store.ts';

let s3: S3Peer;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-blobs-'));

beforeAll(async () => {
  s3 = await startS3Peer();
});
afterAll(async () => {
  await s3.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function readAll(stream: Readable | null): Promise<Buffer | null> {
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Bytes from a generator, so a large blob is never one buffer on the way in. */
function streamOf(size: number, seed: number): Readable {
  let sent = 0;
  return Readable.from(
    (function* () {
      while (sent < size) {
        const n = Math.min(65_536, size - sent);
        const chunk = Buffer.alloc(n, (seed + sent / 65_536) % 251);
        sent += n;
        yield chunk;
      }
    })(),
  );
}

const stores: [string, () => BlobStore][] = [
  ['local directory', () => localBlobStore(dataDir)],
  ['S3-compatible (s3rver on loopback)', () => s3BlobStore(s3.config, dataDir)],
];

describe.each(stores)('blob store: %s', (_name, make) => {
  it('puts, gets and deletes a stream', async () => {
    const store = make();
    const key = `reports/t1/${Date.now()}`;
    expect(await store.put(key, Readable.from([Buffer.from('hello '), Buffer.from('blobs')]))).toEqual({ size: 11 });
    expect((await readAll(await store.get(key)))?.toString()).toBe('hello blobs');
    await store.delete(key);
    expect(await store.get(key)).toBeNull();
    await store.delete(key); // absent: no error
  });

  it('streams a 3 MiB blob both ways and replaces an existing key', async () => {
    const store = make();
    const key = 'reports/t2/big';
    await store.put(key, Readable.from([Buffer.from('old')]));
    expect((await store.put(key, streamOf(3 * 1024 * 1024, 7))).size).toBe(3 * 1024 * 1024);
    const back = await readAll(await store.get(key));
    expect(back?.length).toBe(3 * 1024 * 1024);
    expect(back?.[0]).toBe(7);
    expect(back?.[65_536 * 2]).toBe(9);
  });

  it('stores nothing when the incoming stream fails', async () => {
    const store = make();
    const key = 'reports/t3/broken';
    const failing = Readable.from(
      (async function* () {
        yield Buffer.from('partial');
        throw new Error('client went away');
      })(),
    );
    await expect(store.put(key, failing)).rejects.toThrow('client went away');
    expect(await store.get(key)).toBeNull();
  });

  it.each(['../escape', 'a/../../b', '/abs', 'a//b', ''])('refuses the key %j', async (key) => {
    await expect(make().get(key)).rejects.toThrow('invalid blob key');
  });
});
