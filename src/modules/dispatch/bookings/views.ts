// A booking as the caller sees it, mapped from its row (render-bookings.ts loads the rest): no queries here.
import { iso, isoOrNull } from '../../../shared/time.ts';
import type { BookingTipDistribution } from '../hooks.ts';
import type * as repo from './repository.ts';

const NOT_EVALUATED: BookingTipDistribution = { tour_id: null, status: 'pending', reason: 'dropoffs_unresolved' };

export const bookingFields = (row: repo.BookingRow, tips: Map<string, BookingTipDistribution>, earnings: (money: repo.BookingRow['earnings']) => object) => ({
  id: row.id,
  external_id: row.externalId,
  service_id: row.serviceId,
  service_area_id: row.serviceAreaId,
  customer_id: row.customerId,
  status: row.status,
  scheduled_at: isoOrNull(row.scheduledAt),
  managing_organization_ids: row.managingOrganizationIds,
  preferred_driver_ids: row.preferredDriverIds,
  tip: row.tip,
  tip_distribution: tips.get(row.id) ?? NOT_EVALUATED,
  ...earnings(row.earnings),
  auto_dispatch: row.autoDispatch ?? null,
  metadata: row.metadata,
  created_at: iso(row.createdAt),
  updated_at: iso(row.updatedAt),
});
