// Identity's resources as the wire shows them, mapped from rows: no queries here.
import { iso, isoOrNull } from '../../shared/time.ts';
import type * as repo from './repository.ts';
import type * as orgRepo from './organizations-repository.ts';
import type { PolygonInput } from './schemas.ts';

export interface TenantView {
  id: string;
  name: string;
  extensions: string[];
  settings: { enforce_sunsets: boolean };
  created_at: string;
}

export const toTenantView = (row: repo.TenantRow): TenantView => ({
  id: row.id,
  name: row.name,
  extensions: row.extensions,
  settings: row.settings,
  created_at: iso(row.createdAt),
});

export function toUserView(row: repo.UserRow, organizationIds: string[]) {
  const driverFields =
    row.role === 'driver'
      ? { active_tour_id: row.activeTourId, active_hailing_booking_ids: row.activeTourId ? [row.activeTourId] : [] }
      : {};
  return {
    id: row.id,
    role: row.role,
    name: row.name,
    email: row.email,
    phone_number: row.phoneNumber,
    organization_ids: organizationIds,
    ...driverFields,
    deactivated_at: isoOrNull(row.deactivatedAt),
    created_at: iso(row.createdAt),
  };
}

export type UserView = ReturnType<typeof toUserView>;

export const toOrganizationView = (row: orgRepo.OrganizationRow) => ({
  id: row.id,
  name: row.name,
  service_area_ids: row.serviceAreaIds,
  created_at: iso(row.createdAt),
});
export type OrganizationView = ReturnType<typeof toOrganizationView>;

export const toServiceAreaView = (row: orgRepo.ServiceAreaRow) => ({
  id: row.id,
  name: row.name,
  currency: row.currency,
  time_zone: row.timeZone,
  boundary: row.boundary as PolygonInput | null,
  scheduling_config_id: row.schedulingConfigId,
  average_speed_kmh: row.averageSpeedKmh,
  auto_dispatch: { enabled: row.autoDispatchEnabled, budget_ms: row.autoDispatchBudgetMs },
  created_at: iso(row.createdAt),
  recipient_notifications: row.recipientNotifications,
  recipient_approaching_minutes: row.recipientApproachingMinutes,
  country_code: row.countryCode,
  sms_quiet_hours: row.smsQuietHours ?? null,
  recipient_reschedule_days: row.recipientRescheduleDays,
});
export type ServiceAreaView = ReturnType<typeof toServiceAreaView>;

export function toApiKeyView(row: repo.CredentialRow) {
  return {
    id: row.id,
    name: row.name,
    user_id: row.userId,
    token_prefix: row.tokenPrefix,
    revoked_at: isoOrNull(row.revokedAt),
    created_at: iso(row.createdAt),
  };
}
export type ApiKeyView = ReturnType<typeof toApiKeyView>;
