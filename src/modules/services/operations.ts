// Tour service and scheduling config operations: admins write, admins and managers read (dispatchers need them).
import type { Deps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import type { Actor } from '../../http/actor.ts';
import { invalidFields, notFound, unknownReference } from '../../http/errors.ts';
import { decodeCursor, toPage, type Page } from '../../http/pagination.ts';
import { newId } from '../../shared/ids.ts';
import { iso } from '../../shared/time.ts';
import { findServiceArea } from '../identity/index.ts';
import { servicePermissions } from './permissions.ts';
import * as repo from './repository.ts';
import { defaultReturnStopType, mergeFailureOutcomes, SCHEDULING_CONFIG_DEFAULTS, SERVICE_DEFAULTS, serviceConfigErrors } from './rules.ts';
import type { SchedulingConfigCreateInput, SchedulingConfigUpdateInput, ServiceCreateInput, ServiceUpdateInput } from './schemas.ts';

export function toServiceView(row: repo.ServiceRow) {
  return {
    id: row.id,
    name: row.name,
    service_area_id: row.serviceAreaId,
    dispatch_mode: row.dispatchMode,
    tip_distribution_strategy: row.tipDistributionStrategy,
    stop_types: row.stopTypes,
    return_stop_type: row.returnStopType,
    max_stops_per_booking: row.maxStopsPerBooking,
    max_stops_per_tour: row.maxStopsPerTour,
    failure_outcomes: row.failureOutcomes,
    force_delivery_proof: row.forceDeliveryProof,
    scheduling_config_id: row.schedulingConfigId,
    created_at: iso(row.createdAt),
  };
}
export type ServiceView = ReturnType<typeof toServiceView>;

/** `gradual_rollout_frequency_seconds` is deprecated: always null (docs/api-guide.md "Tour services and scheduling configs"), omitted once its sunset is enforced. */
export function toSchedulingConfigView(row: repo.SchedulingConfigRow, withDeprecated: boolean) {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    claim_window_seconds: row.claimWindowSeconds,
    ...(withDeprecated ? { gradual_rollout_frequency_seconds: null } : {}),
    created_at: iso(row.createdAt),
  };
}
export type SchedulingConfigView = ReturnType<typeof toSchedulingConfigView>;

async function checkServiceReferences(tx: Tx, tenantId: string, input: { service_area_id?: string; scheduling_config_id?: string | null }) {
  if (input.service_area_id && !(await findServiceArea(tx, tenantId, input.service_area_id))) {
    throw unknownReference('/service/service_area_id', 'service area');
  }
  if (input.scheduling_config_id && !(await repo.findSchedulingConfig(tx, tenantId, input.scheduling_config_id))) {
    throw unknownReference('/service/scheduling_config_id', 'scheduling config');
  }
}

function checkServiceRules(config: { stopTypes: readonly string[]; returnStopType: string | null }): void {
  const errors = serviceConfigErrors(config);
  if (errors.length) throw invalidFields(errors);
}

export async function listServices(deps: Deps, actor: Actor, query: { limit?: number; cursor?: string }): Promise<Page<ServiceView>> {
  servicePermissions.require(actor, 'read');
  const limit = query.limit ?? 25;
  const [afterId] = decodeCursor(query.cursor) ?? [null];
  const rows = await repo.listServices(deps.db, actor.tenantId, typeof afterId === 'string' ? afterId : null, limit);
  const page = toPage(rows, limit, (row) => [row.id]);
  return { items: page.items.map(toServiceView), meta: page.meta };
}

export async function showService(deps: Deps, actor: Actor, id: string): Promise<ServiceView> {
  servicePermissions.require(actor, 'read');
  const row = await repo.findService(deps.db, actor.tenantId, id);
  if (!row) throw notFound('service');
  return toServiceView(row);
}

export async function createService(deps: Deps, actor: Actor, input: ServiceCreateInput): Promise<ServiceView> {
  servicePermissions.require(actor, 'manage');
  const stopTypes = input.stop_types ?? [...SERVICE_DEFAULTS.stopTypes];
  const row: repo.ServiceRow = {
    tenantId: actor.tenantId,
    id: newId(),
    name: input.name,
    serviceAreaId: input.service_area_id,
    dispatchMode: input.dispatch_mode ?? SERVICE_DEFAULTS.dispatchMode,
    tipDistributionStrategy: input.tip_distribution_strategy ?? SERVICE_DEFAULTS.tipDistributionStrategy,
    stopTypes,
    returnStopType: input.return_stop_type === undefined ? defaultReturnStopType(stopTypes) : input.return_stop_type,
    maxStopsPerBooking: input.max_stops_per_booking ?? SERVICE_DEFAULTS.maxStopsPerBooking,
    maxStopsPerTour: input.max_stops_per_tour ?? SERVICE_DEFAULTS.maxStopsPerTour,
    failureOutcomes: mergeFailureOutcomes(SERVICE_DEFAULTS.failureOutcomes, input.failure_outcomes),
    forceDeliveryProof: input.force_delivery_proof ?? [...SERVICE_DEFAULTS.forceDeliveryProof],
    schedulingConfigId: input.scheduling_config_id ?? SERVICE_DEFAULTS.schedulingConfigId,
    createdAt: deps.clock.now(),
  };
  checkServiceRules(row);
  return deps.db.transaction(async (tx) => {
    await checkServiceReferences(tx, actor.tenantId, input);
    await repo.insertService(tx, row);
    return toServiceView(row);
  });
}

/** PUT changes only the fields given (docs/api-guide.md "Conventions"); rules are checked on the result. */
export async function updateService(deps: Deps, actor: Actor, id: string, input: ServiceUpdateInput): Promise<ServiceView> {
  servicePermissions.require(actor, 'manage');
  return deps.db.transaction(async (tx) => {
    const current = await repo.findServiceForUpdate(tx, actor.tenantId, id);
    if (!current) throw notFound('service');
    await checkServiceReferences(tx, actor.tenantId, input);
    const patch: Partial<repo.ServiceRow> = {};
    if (input.name !== undefined) patch.name = input.name;
    if (input.service_area_id !== undefined) patch.serviceAreaId = input.service_area_id;
    if (input.dispatch_mode !== undefined) patch.dispatchMode = input.dispatch_mode;
    if (input.tip_distribution_strategy !== undefined) patch.tipDistributionStrategy = input.tip_distribution_strategy;
    if (input.stop_types !== undefined) patch.stopTypes = input.stop_types;
    if (input.return_stop_type !== undefined) patch.returnStopType = input.return_stop_type;
    if (input.max_stops_per_booking !== undefined) patch.maxStopsPerBooking = input.max_stops_per_booking;
    if (input.max_stops_per_tour !== undefined) patch.maxStopsPerTour = input.max_stops_per_tour;
    if (input.failure_outcomes !== undefined) patch.failureOutcomes = mergeFailureOutcomes(current.failureOutcomes, input.failure_outcomes);
    if (input.force_delivery_proof !== undefined) patch.forceDeliveryProof = input.force_delivery_proof;
    if (input.scheduling_config_id !== undefined) patch.schedulingConfigId = input.scheduling_config_id;
    const next = { ...current, ...patch };
    checkServiceRules(next);
    await repo.updateService(tx, actor.tenantId, id, patch);
    return toServiceView(next);
  });
}

export async function listSchedulingConfigs(
  deps: Deps,
  actor: Actor,
  query: { limit?: number; cursor?: string },
  withDeprecated: boolean,
): Promise<Page<SchedulingConfigView>> {
  servicePermissions.require(actor, 'read');
  const limit = query.limit ?? 25;
  const [afterId] = decodeCursor(query.cursor) ?? [null];
  const rows = await repo.listSchedulingConfigs(deps.db, actor.tenantId, typeof afterId === 'string' ? afterId : null, limit);
  const page = toPage(rows, limit, (row) => [row.id]);
  return { items: page.items.map((row) => toSchedulingConfigView(row, withDeprecated)), meta: page.meta };
}

export async function showSchedulingConfig(deps: Deps, actor: Actor, id: string, withDeprecated: boolean): Promise<SchedulingConfigView> {
  servicePermissions.require(actor, 'read');
  const row = await repo.findSchedulingConfig(deps.db, actor.tenantId, id);
  if (!row) throw notFound('scheduling config');
  return toSchedulingConfigView(row, withDeprecated);
}

/** gradual_rollout_frequency_seconds may be sent and is dropped here: docs/api-guide.md "Tour services and scheduling configs" says it has no effect. */
export async function createSchedulingConfig(
  deps: Deps,
  actor: Actor,
  input: SchedulingConfigCreateInput,
  withDeprecated: boolean,
): Promise<SchedulingConfigView> {
  servicePermissions.require(actor, 'manage');
  const row: repo.SchedulingConfigRow = {
    tenantId: actor.tenantId,
    id: newId(),
    name: input.name,
    mode: input.mode ?? SCHEDULING_CONFIG_DEFAULTS.mode,
    claimWindowSeconds: input.claim_window_seconds ?? SCHEDULING_CONFIG_DEFAULTS.claimWindowSeconds,
    createdAt: deps.clock.now(),
  };
  await deps.db.transaction(async (tx) => repo.insertSchedulingConfig(tx, row));
  return toSchedulingConfigView(row, withDeprecated);
}

export async function updateSchedulingConfig(
  deps: Deps,
  actor: Actor,
  id: string,
  input: SchedulingConfigUpdateInput,
  withDeprecated: boolean,
): Promise<SchedulingConfigView> {
  servicePermissions.require(actor, 'manage');
  return deps.db.transaction(async (tx) => {
    const current = await repo.findSchedulingConfigForUpdate(tx, actor.tenantId, id);
    if (!current) throw notFound('scheduling config');
    const patch: Partial<repo.SchedulingConfigRow> = {};
    if (input.name !== undefined) patch.name = input.name;
    if (input.mode !== undefined) patch.mode = input.mode;
    if (input.claim_window_seconds !== undefined) patch.claimWindowSeconds = input.claim_window_seconds;
    await repo.updateSchedulingConfig(tx, actor.tenantId, id, patch);
    return toSchedulingConfigView({ ...current, ...patch }, withDeprecated);
  });
}
