// Tour service rules: the contract's defaults and the checks a whole service configuration must pass.
import type { FieldError } from '../../http/errors.ts';
import type { FailureOutcomes } from './tables.ts';
import { FAILURE_OUTCOMES } from '../../shared/domain-constants.ts';

/** Every outcome, to every role, as a stored list (the constant itself is read-only). */
const ALL_OUTCOMES = [...FAILURE_OUTCOMES];

/** docs/api-guide.md "Tour services and scheduling configs": every field a create may leave out. */
export const SERVICE_DEFAULTS = {
  dispatchMode: 'manual',
  tipDistributionStrategy: 'noop',
  stopTypes: ['pickup', 'dropoff', 'task', 'return'],
  returnStopType: 'return',
  maxStopsPerBooking: 25,
  maxStopsPerTour: 100,
  failureOutcomes: { admin: ALL_OUTCOMES, manager: ALL_OUTCOMES, driver: ALL_OUTCOMES },
  forceDeliveryProof: [],
  schedulingConfigId: null,
} as const;

/** `return` when the service has that stop type; a service created without it has returns disabled (null). */
export const defaultReturnStopType = (stopTypes: readonly string[]): string | null =>
  stopTypes.includes(SERVICE_DEFAULTS.returnStopType) ? SERVICE_DEFAULTS.returnStopType : null;

/** docs/api-guide.md "Tour services and scheduling configs": a config's mode and claim window when a create leaves them out. */
export const SCHEDULING_CONFIG_DEFAULTS = { mode: 'instant', claimWindowSeconds: 900 } as const;

/** Roles named in the input replace their list; roles left out keep the current one. */
export function mergeFailureOutcomes(current: FailureOutcomes, input: Partial<FailureOutcomes> | undefined): FailureOutcomes {
  return { admin: input?.admin ?? current.admin, manager: input?.manager ?? current.manager, driver: input?.driver ?? current.driver };
}

/** Cross-field checks on the configuration as it will be stored (after defaults and partial updates). */
export function serviceConfigErrors(config: { stopTypes: readonly string[]; returnStopType: string | null }): FieldError[] {
  if (config.returnStopType !== null && !config.stopTypes.includes(config.returnStopType)) {
    return [{ pointer: '/service/return_stop_type', code: 'invalid_value', detail: `must be one of the service's stop_types or null` }];
  }
  return [];
}
