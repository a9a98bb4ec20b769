// Busyness operations: the periodic tick that recomputes every area of the tenants with the busyness extension.
import type { Deps } from '../../deps.ts';
import { recordEvent } from '../../events/outbox.ts';
import { tenantsWithExtension } from '../identity/index.ts';
import { placeIdsInServiceArea } from '../places/index.ts';
import { countOpenToursAndBusyDrivers } from '../dispatch/index.ts';
import { iso } from '../../shared/time.ts';
import { changedAreas } from './busyness.ts';
import * as repo from './repository.ts';

/**
 * One transaction per tenant: locks the stored values, recomputes every area, stores the new steps and records one
 * busyness.place_changed per place of each area whose step changed. Returns the number of events recorded.
 */
export async function recomputeBusyness(deps: Deps, tenantId: string): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const previous = await repo.storedLevelsForUpdate(tx, tenantId);
    const changes = changedAreas(await countOpenToursAndBusyDrivers(tx, tenantId), previous);
    const at = deps.clock.now();
    let recorded = 0;
    for (const change of changes) {
      await repo.storeLevel(tx, tenantId, change.serviceAreaId, change.busyness, at);
      for (const placeId of await placeIdsInServiceArea(tx, tenantId, change.serviceAreaId)) {
        await recordEvent(tx, {
          tenantId,
          actor: 'system',
          type: 'busyness.place_changed',
          resourceId: placeId,
          data: {
            place_id: placeId,
            service_area_id: change.serviceAreaId,
            busyness: change.busyness,
            previous_busyness: change.previousBusyness,
            computed_at: iso(at),
          },
          at,
        });
        recorded++;
      }
    }
    return recorded;
  });
}

export async function recomputeAllBusyness(deps: Deps): Promise<void> {
  for (const tenantId of await tenantsWithExtension(deps.db, 'busyness')) await recomputeBusyness(deps, tenantId);
}
