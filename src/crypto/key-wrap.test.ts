import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { masterKeyOf, unwrap, wrap, wrappingKeyId } from './key-wrap.ts';
import { decodeMasterKey, masterKeyFile, masterKeyFor } from './master-key.ts';

const a = masterKeyOf(randomBytes(32));
const b = masterKeyOf(randomBytes(32));

describe('key wrapping', () => {
  it('opens what it sealed with the same key and context, and names the sealing key', () => {
    const secret = randomBytes(32);
    const sealed = wrap(a, secret, 't|r');
    expect(wrappingKeyId(sealed)).toBe(a.id);
    expect(unwrap([b, a], sealed, 't|r')).toEqual(secret);
    expect(sealed).not.toContain(secret.toString('base64url'));
  });

  it.each([
    ['another context', [a], 't|other'],
    ['a key ring without the sealing key', [b], 't|r'],
  ])('refuses %s', (_name, keys, context) => {
    expect(() => unwrap(keys, wrap(a, randomBytes(32), 't|r'), context)).toThrow();
  });

  it('property: changing any character of the sealed body fails to open', () => {
    const sealed = wrap(a, randomBytes(32), 'ctx');
    const bodyStart = sealed.lastIndexOf('.') + 1;
    fc.assert(
      fc.property(fc.integer({ min: bodyStart, max: sealed.length - 1 }), (at) => {
        const replacement = sealed[at] === 'A' ? 'B' : 'A';
        const tampered = sealed.slice(0, at) + replacement + sealed.slice(at + 1);
        expect(() => unwrap([a], tampered, 'ctx')).toThrow();
      }),
      { numRuns: 100 },
    );
  });
});

describe('the master key', () => {
  it('comes from REPORTS_MASTER_KEY when set', () => {
    const base64 = randomBytes(32).toString('base64');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tb-key-'));
    expect(masterKeyFor({ reportsMasterKey: base64, databaseUrl: 'postgres://x', dataDir })?.id).toBe(decodeMasterKey(base64).id);
    expect(fs.existsSync(masterKeyFile(dataDir))).toBe(false);
  });

  it('is generated once into DATA_DIR with mode 0600 when embedded', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tb-key-'));
    const first = masterKeyFor({ reportsMasterKey: null, databaseUrl: null, dataDir });
    expect(first).not.toBeNull();
    expect(fs.statSync(masterKeyFile(dataDir)).mode & 0o777).toBe(0o600);
    expect(decodeMasterKey(fs.readFileSync(masterKeyFile(dataDir), 'utf8')).id).toBe(first!.id);
  });

  it('is absent on a server deployment without REPORTS_MASTER_KEY (nothing generated)', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tb-key-'));
    expect(masterKeyFor({ reportsMasterKey: null, databaseUrl: 'postgres://db/x', dataDir })).toBeNull();
    expect(fs.existsSync(masterKeyFile(dataDir))).toBe(false);
  });
});
