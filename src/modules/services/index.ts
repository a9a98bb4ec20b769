// What other modules may use of services: a tour service's configuration and a scheduling config, by id.
import type { Queryable } from '../../db/client.ts';
import { findSchedulingConfig, findService, type SchedulingConfigRow, type ServiceRow } from './repository.ts';

/** The service as one part of a combined read (see db/json-read.ts). */
export { serviceRead, serviceAreaIdOfService } from './repository.ts';

export type { DeliveryProofKind, FailureOutcome, FailureOutcomes, TipDistributionStrategy } from './tables.ts';
/** The failure outcomes, in their order (defined below the modules for the failures module's rules: decision 0215). */
export { FAILURE_OUTCOMES } from '../../shared/domain-constants.ts';
/** A scheduling config's defaults: the claim window a tour without a config takes too. */
export { SCHEDULING_CONFIG_DEFAULTS } from './rules.ts';
/** The failure outcome enum as a wire schema (one `FailureOutcome` component in the OpenAPI document). */
export { FailureOutcomeName } from './schemas.ts';

/** A tour service's configuration: stop types, return stop type, stop limits, failure outcomes per role, proof, tips. */
export type ServiceConfig = Omit<ServiceRow, 'tenantId'>;
export type SchedulingConfig = Omit<SchedulingConfigRow, 'tenantId'>;

/** The service, or null when it does not exist in the tenant (callers answer 404 or 422 unknown_reference). */
export async function getService(q: Queryable, tenantId: string, id: string): Promise<ServiceConfig | null> {
  return findService(q, tenantId, id);
}

export async function getSchedulingConfig(q: Queryable, tenantId: string, id: string): Promise<SchedulingConfig | null> {
  return findSchedulingConfig(q, tenantId, id);
}
