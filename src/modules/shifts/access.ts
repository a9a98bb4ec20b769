// The shifts' doors (decision 0219): who may read and write a driver's shifts (docs/api-guide.md "Optimising tours and
// planning dispatch"): admins, and managers of the driver's organization, read and write; the driver reads its own;
// everyone else does not see them (404), and customers may never (403).
import type { Queryable } from '../../db/client.ts';
import type { Actor } from '../../http/actor.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { findUser, membershipsOf } from '../identity/index.ts';
import * as repo from './repository.ts';

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

/** A driver's shifts (create, list): what the caller may do with them; 404 when the driver is absent or unseen. */
export async function requireDriverShifts(q: Queryable, actor: Actor, driverId: string): Promise<Exclude<ShiftAccess, 'none'>> {
  if (!mayEverSeeShifts(actor)) throw forbidden();
  const driver = await findUser(q, actor.tenantId, driverId);
  if (!driver || driver.role !== 'driver') throw notFound('driver');
  const access = shiftAccess(actor, driverId, (await membershipsOf(q, actor.tenantId, [driverId])).get(driverId) ?? []);
  if (access === 'none') throw notFound('driver');
  return access;
}

/** One shift's door: 403 for a role that never sees shifts, 404 unless seen, and with `write` 403 for a reader. */
export async function requireShift(q: Queryable, actor: Actor, id: string, options: { write?: boolean } = {}): Promise<repo.ShiftRow> {
  if (!mayEverSeeShifts(actor)) throw forbidden();
  const row = await repo.findShift(q, actor.tenantId, id);
  if (!row) throw notFound('shift');
  const access = shiftAccess(actor, row.driverId, (await membershipsOf(q, actor.tenantId, [row.driverId])).get(row.driverId) ?? []);
  if (access === 'none') throw notFound('shift');
  if (options.write && access !== 'write') throw forbidden();
  return row;
}
