// A real S3-compatible server on loopback for tests: s3rver (npm, pure JavaScript, in-process), decision 0700.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
// @ts-expect-error -- s3rver ships no type declarations; the four members used here are typed below.
import S3rver from 's3rver';
import type { Config } from '../src/config.ts';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}

export interface S3Peer {
  config: NonNullable<Config['s3']>;
  /** Where s3rver keeps the objects (to read raw blobs in tests). */
  directory: string;
  close(): Promise<void>;
}

export async function startS3Peer(bucket = 'tourbook'): Promise<S3Peer> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-s3-'));
  const server = new (S3rver as new (options: Record<string, unknown>) => S3rverInstance)({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    vhostBuckets: false,
    configureBuckets: [{ name: bucket }],
  });
  const address = await server.run();
  return {
    // s3rver checks SigV4 signatures against its fixed credentials.
    config: { endpoint: `http://127.0.0.1:${address.port}`, bucket, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    directory,
    close: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
