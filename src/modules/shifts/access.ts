// Who may read and write a driver's shifts (docs/api-guide.md "Optimising tours and planning dispatch"): admins, and managers of the driver's organization, read
// and write; the driver reads its own; everyone else does not see them (404), and customers may never (403).
import type { Actor } from '../../http/actor.ts';

export type ShiftAccess = 'write' | 'read' | 'none';

/** `driverOrganizationIds`: the organizations the driver belongs to (exactly one for a driver). */
export function shiftAccess(actor: Pick<Actor, 'role' | 'userId' | 'organizationIds'>, driverId: string, driverOrganizationIds: readonly string[]): ShiftAccess {
  if (actor.role === 'admin') return 'write';
  if (actor.role === 'manager') return driverOrganizationIds.some((o) => actor.organizationIds.includes(o)) ? 'write' : 'none';
  if (actor.role === 'driver') return actor.userId === driverId ? 'read' : 'none';
  return 'none';
}

/** Roles that may never touch shifts: refused before anything is looked up. */
export const mayEverSeeShifts = (actor: Pick<Actor, 'role'>): boolean => actor.role !== 'customer';

/** Half-open: a shift ending at 12:00 and one starting at 12:00 do not overlap. */
export const overlaps = (a: { startsAt: Date; endsAt: Date }, b: { startsAt: Date; endsAt: Date }): boolean =>
  a.startsAt.getTime() < b.endsAt.getTime() && b.startsAt.getTime() < a.endsAt.getTime();
