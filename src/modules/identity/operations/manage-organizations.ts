// Organization and service area operations: admins write; managers read their own organizations.
import type { Deps } from '../../../deps.ts';
import type { Tx } from '../../../db/client.ts';
import type { Actor } from '../../../http/actor.ts';
import { invalidFields, notFound, unknownReference } from '../../../http/errors.ts';
import { decodeCursor, toPage, type Page } from '../../../http/pagination.ts';
import { isPhoneCountry } from '../../../shared/contact.ts';
import { newId } from '../../../shared/ids.ts';
import { requireOrganization } from '../access.ts';
import { identityPermissions, readScope } from '../permissions.ts';
import * as orgRepo from '../organizations-repository.ts';
import { canonicalTimeZone, DEFAULT_AVERAGE_SPEED_KMH, isCurrency, polygonErrors } from '../rules.ts';
import type { OrganizationCreateInput, OrganizationUpdateInput, ServiceAreaCreateInput, ServiceAreaUpdateInput } from '../schemas.ts';
import { AUTO_DISPATCH_BUDGET_MS, RECIPIENT_APPROACHING_MINUTES } from '../schemas.ts';
import { toOrganizationView, toServiceAreaView, type OrganizationView, type ServiceAreaView } from '../views.ts';

const cursorId = (cursor: string | undefined): string | null => {
  const [afterId] = decodeCursor(cursor) ?? [null];
  return typeof afterId === 'string' ? afterId : null;
};

async function checkServiceAreas(tx: Tx, tenantId: string, ids: string[]): Promise<void> {
  const found = new Set((await orgRepo.findServiceAreas(tx, tenantId, ids)).map((a) => a.id));
  const missing = ids.findIndex((id) => !found.has(id));
  if (missing >= 0) throw unknownReference(`/organization/service_area_ids/${missing}`, 'service area');
}

export async function listOrganizations(deps: Deps, actor: Actor, query: { limit?: number; cursor?: string }): Promise<Page<OrganizationView>> {
  const within = readScope(actor, 'read_organizations');
  const limit = query.limit ?? 25;
  const rows = await orgRepo.listOrganizations(deps.db, actor.tenantId, { withinIds: within, afterId: cursorId(query.cursor), limit });
  const page = toPage(rows, limit, (row) => [row.id]);
  return { items: page.items.map(toOrganizationView), meta: page.meta };
}

export async function getOrganization(deps: Deps, actor: Actor, id: string): Promise<OrganizationView> {
  return toOrganizationView(await requireOrganization(deps.db, actor, id));
}

export async function createOrganization(deps: Deps, actor: Actor, input: OrganizationCreateInput): Promise<OrganizationView> {
  identityPermissions.require(actor, 'manage_organizations');
  const row = { tenantId: actor.tenantId, id: newId(), name: input.name, serviceAreaIds: input.service_area_ids ?? [], createdAt: deps.clock.now() };
  return deps.db.transaction(async (tx) => {
    await checkServiceAreas(tx, actor.tenantId, row.serviceAreaIds);
    await orgRepo.insertOrganization(tx, row);
    return toOrganizationView(row);
  });
}

export async function updateOrganization(deps: Deps, actor: Actor, id: string, input: OrganizationUpdateInput): Promise<OrganizationView> {
  identityPermissions.require(actor, 'manage_organizations');
  return deps.db.transaction(async (tx) => {
    const current = await orgRepo.findOrganizationForUpdate(tx, actor.tenantId, id);
    if (!current) throw notFound('organization');
    if (input.service_area_ids) await checkServiceAreas(tx, actor.tenantId, input.service_area_ids);
    const patch = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.service_area_ids !== undefined ? { serviceAreaIds: input.service_area_ids } : {}),
    };
    await orgRepo.updateOrganization(tx, actor.tenantId, id, patch);
    return toOrganizationView({ ...current, ...patch });
  });
}

/** Checks what the schema cannot (a real ISO-4217 code, a known IANA zone, a closed in-range polygon); returns the canonical zone. */
function checkServiceAreaFields(input: ServiceAreaUpdateInput): { timeZone?: string } {
  const errors = [];
  if (input.currency !== undefined && !isCurrency(input.currency)) {
    errors.push({ pointer: '/service_area/currency', code: 'invalid_value', detail: 'is not an ISO-4217 currency code' });
  }
  const timeZone = input.time_zone === undefined ? undefined : canonicalTimeZone(input.time_zone);
  if (timeZone === null) errors.push({ pointer: '/service_area/time_zone', code: 'invalid_value', detail: 'is not an IANA time zone' });
  if (input.boundary) errors.push(...polygonErrors(input.boundary.coordinates, '/service_area/boundary'));
  if (typeof input.country_code === 'string' && !isPhoneCountry(input.country_code)) {
    errors.push({ pointer: '/service_area/country_code', code: 'invalid_value', detail: 'is not an ISO 3166-1 alpha-2 country code' });
  }
  if (input.sms_quiet_hours && input.sms_quiet_hours.from === input.sms_quiet_hours.to) {
    errors.push({ pointer: '/service_area/sms_quiet_hours/to', code: 'invalid_value', detail: 'must differ from the start time: quiet hours of no length are none' });
  }
  if (errors.length) throw invalidFields(errors);
  return timeZone ? { timeZone } : {};
}

/** Scheduling configs are the services module's: asked through identity's hook (services imports identity). */
async function checkSchedulingConfig(deps: Deps, tx: Tx, tenantId: string, id: string | null | undefined): Promise<void> {
  if (id && !(await deps.hooks.identity.schedulingConfigExists(tx, tenantId, id))) throw unknownReference('/service_area/scheduling_config_id', 'scheduling config');
}

export async function listServiceAreas(deps: Deps, actor: Actor, query: { limit?: number; cursor?: string }): Promise<Page<ServiceAreaView>> {
  identityPermissions.require(actor, 'read_service_areas');
  const limit = query.limit ?? 25;
  const rows = await orgRepo.listServiceAreas(deps.db, actor.tenantId, cursorId(query.cursor), limit);
  const page = toPage(rows, limit, (row) => [row.id]);
  return { items: page.items.map(toServiceAreaView), meta: page.meta };
}

export async function getServiceArea(deps: Deps, actor: Actor, id: string): Promise<ServiceAreaView> {
  identityPermissions.require(actor, 'read_service_areas');
  const row = await orgRepo.findServiceArea(deps.db, actor.tenantId, id);
  if (!row) throw notFound('service area');
  return toServiceAreaView(row);
}

export async function createServiceArea(deps: Deps, actor: Actor, input: ServiceAreaCreateInput): Promise<ServiceAreaView> {
  identityPermissions.require(actor, 'manage_service_areas');
  const { timeZone } = checkServiceAreaFields(input);
  const row: orgRepo.ServiceAreaRow = {
    tenantId: actor.tenantId,
    id: newId(),
    name: input.name,
    currency: input.currency,
    timeZone: timeZone ?? input.time_zone,
    boundary: input.boundary ?? null,
    schedulingConfigId: input.scheduling_config_id ?? null,
    averageSpeedKmh: input.average_speed_kmh ?? DEFAULT_AVERAGE_SPEED_KMH,
    createdAt: deps.clock.now(),
    autoDispatchEnabled: input.auto_dispatch?.enabled ?? false,
    autoDispatchBudgetMs: input.auto_dispatch?.budget_ms ?? AUTO_DISPATCH_BUDGET_MS.default,
    recipientNotifications: input.recipient_notifications ?? [],
    recipientApproachingMinutes: input.recipient_approaching_minutes ?? RECIPIENT_APPROACHING_MINUTES.default,
    countryCode: input.country_code ?? null,
    smsQuietHours: input.sms_quiet_hours ?? null,
    recipientRescheduleDays: input.recipient_reschedule_days ?? 0,
  };
  return deps.db.transaction(async (tx) => {
    await checkSchedulingConfig(deps, tx, actor.tenantId, row.schedulingConfigId);
    await orgRepo.insertServiceArea(tx, row);
    return toServiceAreaView(row);
  });
}

export async function updateServiceArea(deps: Deps, actor: Actor, id: string, input: ServiceAreaUpdateInput): Promise<ServiceAreaView> {
  identityPermissions.require(actor, 'manage_service_areas');
  const { timeZone } = checkServiceAreaFields(input);
  return deps.db.transaction(async (tx) => {
    const current = await orgRepo.findServiceAreaForUpdate(tx, actor.tenantId, id);
    if (!current) throw notFound('service area');
    await checkSchedulingConfig(deps, tx, actor.tenantId, input.scheduling_config_id);
    const patch: Partial<orgRepo.ServiceAreaRow> = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.currency !== undefined ? { currency: input.currency } : {}),
      ...(timeZone !== undefined ? { timeZone } : {}),
      ...(input.boundary !== undefined ? { boundary: input.boundary } : {}),
      ...(input.scheduling_config_id !== undefined ? { schedulingConfigId: input.scheduling_config_id } : {}),
      ...(input.average_speed_kmh !== undefined ? { averageSpeedKmh: input.average_speed_kmh } : {}),
      ...(input.auto_dispatch?.enabled !== undefined ? { autoDispatchEnabled: input.auto_dispatch.enabled } : {}),
      ...(input.auto_dispatch?.budget_ms !== undefined ? { autoDispatchBudgetMs: input.auto_dispatch.budget_ms } : {}),
      ...(input.recipient_notifications !== undefined ? { recipientNotifications: input.recipient_notifications } : {}),
      ...(input.recipient_approaching_minutes !== undefined ? { recipientApproachingMinutes: input.recipient_approaching_minutes } : {}),
      ...(input.country_code !== undefined ? { countryCode: input.country_code } : {}),
      ...(input.sms_quiet_hours !== undefined ? { smsQuietHours: input.sms_quiet_hours } : {}),
      ...(input.recipient_reschedule_days !== undefined ? { recipientRescheduleDays: input.recipient_reschedule_days } : {}),
    };
    await orgRepo.updateServiceArea(tx, actor.tenantId, id, patch);
    return toServiceAreaView({ ...current, ...patch });
  });
}
