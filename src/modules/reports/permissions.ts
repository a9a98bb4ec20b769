// The reports permission matrix: what each role may ever do. Whether it may do it on one report is decided by
// the grants (access.ts): there is no implicit access for any role (docs/api-guide.md "Reports", Authentication).
import type { Actor, UserRole } from '../../http/actor.ts';

export const REPORT_ACTIONS = ['create', 'index', 'show', 'download', 'complete', 'fail', 'activity', 'revoke_grant'] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];
export type ReportPermissions = Record<ReportAction, boolean>;

const all = (allowed: readonly ReportAction[]): ReportPermissions =>
  Object.fromEntries(REPORT_ACTIONS.map((action) => [action, allowed.includes(action)])) as ReportPermissions;

const MATRIX: Record<UserRole, ReportPermissions> = {
  admin: all(REPORT_ACTIONS),
  // A manager completes, fails, inspects and revokes only what it created (access.ts: mayManage).
  manager: all(REPORT_ACTIONS),
  driver: all(['index', 'show', 'download']),
  customer: all(['index', 'show', 'download']),
};

export const reportPermissions = (role: UserRole): ReportPermissions => MATRIX[role];

export const mayOnReports = (actor: Pick<Actor, 'role'>, action: ReportAction): boolean => MATRIX[actor.role][action];
