// The report's door and its rules (decision 0219): who sees a report and who manages it, over the grants
// (docs/api-guide.md "Reports"). No implicit access.
import type { Queryable } from '../../db/client.ts';
import type { Actor } from '../../http/actor.ts';
import { forbidden, notFound, type FieldError } from '../../http/errors.ts';
import { membershipsOf } from '../identity/index.ts';
import type { ReportRow } from './repository.ts';
import type { Grant } from './tables.ts';

export function grantMatches(actor: Pick<Actor, 'role' | 'userId' | 'organizationIds'>, grant: Grant): boolean {
  switch (grant.type) {
    case 'all_admins':
      return actor.role === 'admin';
    case 'organization_managers':
      return actor.role === 'manager' && actor.organizationIds.includes(grant.organization_id);
    case 'user':
      return actor.userId === grant.user_id;
  }
}

/** Read, list and download: some grant names the caller — an admin without one sees nothing either. */
export const seesReport = (actor: Pick<Actor, 'role' | 'userId' | 'organizationIds'>, grants: readonly Grant[]): boolean =>
  grants.some((grant) => grantMatches(actor, grant));

/** Complete, fail, activity, revoking grants: the creator, or an admin who can see the report. */
export const mayManage = (actor: Pick<Actor, 'role' | 'userId' | 'organizationIds'>, report: { createdById: string; grants: readonly Grant[] }): boolean =>
  actor.userId === report.createdById || (actor.role === 'admin' && seesReport(actor, report.grants));

/** The jsonb documents a grant of the caller would contain (`grants @> [doc]` in SQL, the same rule as seesReport). */
export function grantProbes(actor: Pick<Actor, 'role' | 'userId' | 'organizationIds'>): Grant[] {
  const probes: Grant[] = [{ type: 'user', user_id: actor.userId }];
  if (actor.role === 'admin') probes.push({ type: 'all_admins' });
  if (actor.role === 'manager') for (const id of actor.organizationIds) probes.push({ type: 'organization_managers', organization_id: id });
  return probes;
}

/**
 * What a creator may grant. Admins: anything that exists. Managers: only their own organizations' managers and the
 * users they can see (those sharing one of their organizations) — never every admin. `visibleUserIds` are the granted
 * users that exist and the caller can see; an id outside it is answered like an unknown one (no existence leak).
 */
export function grantErrors(
  actor: Pick<Actor, 'role' | 'organizationIds'>,
  grants: readonly Grant[],
  known: { organizationIds: ReadonlySet<string>; visibleUserIds: ReadonlySet<string> },
  pointer = '/report/grants',
): FieldError[] {
  const errors: FieldError[] = [];
  grants.forEach((grant, i) => {
    const at = `${pointer}/${i}`;
    if (grant.type === 'all_admins') {
      if (actor.role !== 'admin') errors.push({ pointer: at, code: 'not_allowed', detail: 'A manager may not share a report with every admin.' });
    } else if (grant.type === 'organization_managers') {
      if (actor.role !== 'admin' && !actor.organizationIds.includes(grant.organization_id)) {
        errors.push({ pointer: at, code: 'not_allowed', detail: "A manager may share only with its own organizations' managers." });
      } else if (!known.organizationIds.has(grant.organization_id)) {
        errors.push({ pointer: `${at}/organization_id`, code: 'unknown_reference', detail: 'No organization with this id is visible to you.' });
      }
    } else if (!known.visibleUserIds.has(grant.user_id)) {
      errors.push({ pointer: `${at}/user_id`, code: 'unknown_reference', detail: 'No user with this id is visible to you.' });
    }
  });
  return errors;
}

/** The distinct people a set of grants reaches, as a query for the identity module. */
export function audienceOf(grants: readonly Grant[]): { admins: boolean; managerOrganizationIds: string[]; userIds: string[] } {
  return {
    admins: grants.some((g) => g.type === 'all_admins'),
    managerOrganizationIds: [...new Set(grants.flatMap((g) => (g.type === 'organization_managers' ? [g.organization_id] : [])))],
    userIds: [...new Set(grants.flatMap((g) => (g.type === 'user' ? [g.user_id] : [])))],
  };
}

/**
 * The report's door, on the row the operation read (null: none) after the role check (`authorize`, 403): a report no
 * grant shows the caller is 404, like one that does not exist. With `manage` (complete, fail, activity, revoke): the
 * creator, or an admin who sees it; others who see it get 403.
 */
export function requireReport(actor: Actor, row: ReportRow | null, options: { manage?: boolean } = {}): ReportRow {
  if (!row) throw notFound('report');
  if (!options.manage) {
    if (!seesReport(actor, row.grants)) throw notFound('report');
    return row;
  }
  if (mayManage(actor, row)) return row;
  if (seesReport(actor, row.grants)) throw forbidden();
  throw notFound('report');
}

/** Of these (existing, active) users, those the caller may grant to: an admin any, a manager those sharing one of its organizations (decision 0202). */
export async function granteesSeenBy(q: Queryable, actor: Actor, userIds: string[]): Promise<string[]> {
  if (actor.role === 'admin') return userIds;
  const memberships = await membershipsOf(q, actor.tenantId, userIds);
  return userIds.filter((id) => (memberships.get(id) ?? []).some((org) => actor.organizationIds.includes(org)));
}
