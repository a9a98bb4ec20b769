// The S3-compatible blob store: path-style requests signed with SigV4 (aws4fetch), bodies streamed by node:http.
// Decision 0700: aws4fetch (one file, no dependencies) signs; node:http streams both ways in constant memory.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AwsV4Signer } from 'aws4fetch';
import type { Config } from '../config.ts';
import { assertBlobKey } from './keys.ts';
import type { BlobStore } from './store.ts';

type S3Config = NonNullable<Config['s3']>;

interface S3Response {
  status: number;
  body: http.IncomingMessage;
}

export function s3BlobStore(s3: S3Config, dataDir: string): BlobStore {
  const base = s3.endpoint.replace(/\/+$/, '');
  const spoolDir = path.join(dataDir, 'tmp');

  async function send(method: string, key: string, options: { body?: Readable; length?: number } = {}): Promise<S3Response> {
    assertBlobKey(key);
    const url = `${base}/${encodeURIComponent(s3.bucket)}/${key.split('/').map(encodeURIComponent).join('/')}`;
    const headers: Record<string, string> = {};
    if (options.length !== undefined) headers['content-length'] = String(options.length);
    const signed = await new AwsV4Signer({
      url,
      method,
      headers,
      service: 's3',
      region: s3.region,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
    }).sign();
    const outgoing: Record<string, string> = {};
    signed.headers.forEach((value, name) => {
      outgoing[name] = value;
    });
    const client = url.startsWith('https:') ? https : http;
    return new Promise<S3Response>((resolve, reject) => {
      const req = client.request(url, { method, headers: outgoing }, (res) => resolve({ status: res.statusCode ?? 0, body: res }));
      req.on('error', reject);
      if (options.body) options.body.on('error', (err) => req.destroy(err)).pipe(req);
      else req.end();
    });
  }

  async function drain(res: S3Response): Promise<string> {
    let text = '';
    for await (const chunk of res.body) if (text.length < 2000) text += String(chunk);
    return text;
  }

  return {
    async put(key, body) {
      // S3 wants the length before the bytes; an upload's length is known only at its end, so the (already
      // encrypted) bytes are spooled to a local file first and then streamed from it.
      await fsp.mkdir(spoolDir, { recursive: true, mode: 0o700 });
      const spool = path.join(spoolDir, `${randomBytes(8).toString('hex')}.s3put`);
      try {
        await pipeline(body, fs.createWriteStream(spool, { mode: 0o600 }));
        const size = (await fsp.stat(spool)).size;
        const res = await send('PUT', key, { body: fs.createReadStream(spool), length: size });
        const text = await drain(res);
        if (res.status < 200 || res.status > 299) throw new Error(`S3 PUT ${key} answered ${res.status}: ${text.slice(0, 300)}`);
        return { size };
      } finally {
        await fsp.rm(spool, { force: true });
      }
    },
    async get(key) {
      const res = await send('GET', key);
      if (res.status === 404) {
        await drain(res);
        return null;
      }
      if (res.status !== 200) throw new Error(`S3 GET ${key} answered ${res.status}: ${(await drain(res)).slice(0, 300)}`);
      return res.body;
    },
    async delete(key) {
      const res = await send('DELETE', key);
      const text = await drain(res);
      if (res.status !== 404 && (res.status < 200 || res.status > 299)) throw new Error(`S3 DELETE ${key} answered ${res.status}: ${text.slice(0, 300)}`);
    },
  };
}
