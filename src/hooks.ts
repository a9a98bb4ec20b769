// The composition root's wiring of the module seams (Deps.hooks): which module answers which other module's hooks.
import type { Hooks } from './deps.ts';
import { NO_DISPATCH_HOOKS } from './modules/dispatch/index.ts';
import { failureRules, seedPackageFailureReasons } from './modules/failures/index.ts';
import { getSchedulingConfig } from './modules/services/index.ts';
import { travelTimes } from './modules/live/index.ts';

/** The hooks of a running Tourbook; `overrides` lets a test or a bench replace one. */
export function wireHooks(overrides: Partial<Hooks> = {}): Hooks {
  return {
    dispatch: NO_DISPATCH_HOOKS,
    failureRules,
    identity: {
      tenantCreated: seedPackageFailureReasons,
      schedulingConfigExists: async (q, tenantId, id) => (await getSchedulingConfig(q, tenantId, id)) !== null,
    },
    travel: travelTimes,
    ...overrides,
  };
}
