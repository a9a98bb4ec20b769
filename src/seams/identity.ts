// Identity's seams (Deps.hooks.identity): identity is the module every other one imports, so where it needs another
// module (a new tenant's seed data, a scheduling config reference) it asks through these. Declared below the modules
// so that Deps names them without importing identity (decision 0212); failures and services answer (src/hooks.ts).
import type { Queryable, Tx } from '../db/client.ts';

export interface IdentityHooks {
  /** A tenant was created, inside its creation transaction (failures seeds its package failure reasons). */
  tenantCreated(tx: Tx, tenantId: string, at: Date): Promise<void>;
  /** Whether a scheduling config exists in the tenant (services owns them; a service area refers to one). */
  schedulingConfigExists(q: Queryable, tenantId: string, id: string): Promise<boolean>;
}
