import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { decodeMasterKey, generateMasterKey } from '../../crypto/master-key.ts';
import { newId } from '../../shared/ids.ts';
import { openSecret, sealSecret } from './secret-sealing.ts';

const server = { databaseUrl: 'postgres://db.example/tourbook', reportsAcceptedMasterKeys: [], dataDir: os.tmpdir() };

describe('webhook secrets at rest (decision 0207)', () => {
  it('refuses to store a secret when there is no key to seal it with, rather than store it in plain text', () => {
    expect(() => sealSecret({ ...server, reportsMasterKey: null }, newId(), newId(), 'whsec_x')).toThrow(/REPORTS_MASTER_KEY/);
  });

  it('seals under the key, bound to the tenant and the subscription', () => {
    const config = { ...server, reportsMasterKey: generateMasterKey() };
    const [tenantId, id] = [newId(), newId()];
    const stored = sealSecret(config, tenantId, id, 'whsec_c2VjcmV0');
    expect(stored.startsWith(`tbk1.${decodeMasterKey(config.reportsMasterKey).id}.`)).toBe(true);
    expect(stored).not.toContain('c2VjcmV0');
    expect(openSecret(config, tenantId, id, stored)).toBe('whsec_c2VjcmV0');
    expect(() => openSecret(config, tenantId, newId(), stored)).toThrow();
  });
});
