// Webhook signing secrets at rest: sealed under the master key like report file keys (decisions 0702 and 0207, which
// supersede the plain storage of 0502). Plain rows written before keep working when read, and are sealed when a worker
// starts.
import type { Config } from '../../config.ts';
import { isWrapped, unwrap, wrap, type MasterKey } from '../../crypto/key-wrap.ts';
import { MASTER_KEY_REQUIRED, masterKeyRingFor } from '../../crypto/master-key.ts';

type KeyConfig = Pick<Config, 'reportsMasterKey' | 'reportsAcceptedMasterKeys' | 'databaseUrl' | 'dataDir'>;

/** Both columns share the context, so a rotated-out secret moves to previous_secret as it is. */
export const secretContext = (tenantId: string, subscriptionId: string): string => `webhook-secret|${tenantId}|${subscriptionId}`;

/** The value to store: always sealed. Without a key there is nothing to store (a server refuses to start without one). */
export function sealSecret(config: KeyConfig, tenantId: string, subscriptionId: string, secret: string): string {
  const [current] = masterKeyRingFor(config);
  if (!current) throw new Error(MASTER_KEY_REQUIRED);
  return wrap(current, Buffer.from(secret, 'utf8'), secretContext(tenantId, subscriptionId));
}

/** The secret itself, from a sealed or a legacy plain value. */
export function openSecret(config: KeyConfig, tenantId: string, subscriptionId: string, stored: string): string {
  if (!isWrapped(stored)) return stored;
  return unwrap(masterKeyRingFor(config), stored, secretContext(tenantId, subscriptionId)).toString('utf8');
}

/** Re-seals a stored value under `next` (plain values get sealed too); null when it is already sealed under `next`. */
export function resealSecret(ring: readonly MasterKey[], next: MasterKey, tenantId: string, subscriptionId: string, stored: string): string | null {
  const context = secretContext(tenantId, subscriptionId);
  if (isWrapped(stored) && stored.split('.')[1] === next.id) return null;
  const plain = isWrapped(stored) ? unwrap([...ring, next], stored, context) : Buffer.from(stored, 'utf8');
  return wrap(next, plain, context);
}
