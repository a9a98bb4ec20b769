// Identity rules: organization membership per role, and the shape checks of a service area's currency, time zone and boundary.
import type { UserRole } from '../../http/actor.ts';
import type { FieldError } from '../../http/errors.ts';

/**
 * A service area's average speed when its create leaves it out, and the speed planning and ETAs assume for an area
 * they cannot find (docs/api-guide.md "Organizations and service areas").
 */
export const DEFAULT_AVERAGE_SPEED_KMH = 30;

/**
 * docs/api-guide.md "Users and authentication": a manager belongs to ≥ 1 organization, a driver to exactly 1. Admins (tenant-wide) and customers
 * belong to none: a membership would suggest an organization scope they do not have.
 */
export function membershipErrors(role: UserRole, organizationIds: readonly string[]): FieldError[] {
  const pointer = '/user/organization_ids';
  const count = organizationIds.length;
  if (role === 'manager' && count < 1) return [{ pointer, code: 'too_few', detail: 'a manager belongs to at least one organization' }];
  if (role === 'driver' && count !== 1) return [{ pointer, code: count ? 'too_many' : 'too_few', detail: 'a driver belongs to exactly one organization' }];
  if ((role === 'admin' || role === 'customer') && count > 0) {
    return [{ pointer, code: 'not_allowed', detail: `a user with role ${role} belongs to no organization` }];
  }
  return [];
}

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export const isCurrency = (code: string): boolean => /^[A-Z]{3}$/.test(code) && CURRENCIES.has(code);

/** The canonical IANA name of a time zone (e.g. `europe/berlin` → `Europe/Berlin`), or null when unknown. */
export function canonicalTimeZone(name: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** RFC 7946 §3.1.6: every ring is closed (first position = last) and positions are [lng, lat] within range. */
export function polygonErrors(coordinates: readonly (readonly (readonly number[])[])[], pointer: string): FieldError[] {
  const errors: FieldError[] = [];
  coordinates.forEach((ring, r) => {
    const bad = ring.findIndex(([lng = NaN, lat = NaN]) => !(Math.abs(lng) <= 180 && Math.abs(lat) <= 90));
    if (bad >= 0) {
      errors.push({ pointer: `${pointer}/coordinates/${r}/${bad}`, code: 'invalid_value', detail: 'a position is [longitude (-180…180), latitude (-90…90)]' });
      return;
    }
    const first = ring[0] ?? [];
    const last = ring[ring.length - 1] ?? [];
    if (first[0] !== last[0] || first[1] !== last[1]) {
      errors.push({ pointer: `${pointer}/coordinates/${r}`, code: 'invalid_value', detail: 'a linear ring ends with its first position' });
    }
  });
  return errors;
}
