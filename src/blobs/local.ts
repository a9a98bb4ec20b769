// The local blob store: one file per key under DATA_DIR/blobs, written to a temporary name and renamed when complete.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { randomBytes } from 'node:crypto';
import { assertBlobKey } from './keys.ts';
import type { BlobStore } from './store.ts';

export function localBlobStore(dataDir: string): BlobStore {
  const root = path.join(dataDir, 'blobs');
  const fileOf = (key: string): string => {
    assertBlobKey(key);
    return path.join(root, ...key.split('/'));
  };
  return {
    async put(key, body) {
      const file = fileOf(key);
      await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      // A reader never sees a half-written blob, and a failed upload leaves nothing under the key.
      const temp = `${file}.${randomBytes(6).toString('hex')}.partial`;
      try {
        await pipeline(body, fs.createWriteStream(temp, { mode: 0o600 }));
        const handle = await fsp.open(temp, 'r');
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
        await fsp.rename(temp, file);
      } catch (err) {
        await fsp.rm(temp, { force: true });
        throw err;
      }
      return { size: (await fsp.stat(file)).size };
    },
    async get(key) {
      const file = fileOf(key);
      try {
        const handle = await fsp.open(file, 'r');
        // Large reads: fewer chunks that straddle a 64 KiB cipher chunk and must be copied.
        return handle.createReadStream({ highWaterMark: 256 * 1024 });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async delete(key) {
      await fsp.rm(fileOf(key), { force: true });
    },
  };
}
