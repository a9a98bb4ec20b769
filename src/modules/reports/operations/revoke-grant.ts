// revokeReportGrant: removes one grant at once; the next request of someone who lost access is 404.
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { notFound } from '../../../http/errors.ts';
import * as repo from '../repository.ts';
import { toReportView, type ReportView } from '../views.ts';
import { requireReport } from '../access.ts';
import { authorize } from './common.ts';

export async function revokeReportGrant(deps: Deps, actor: Actor, id: string, index: number): Promise<ReportView> {
  authorize(deps, actor, 'revoke_grant');
  return deps.db.transaction(async (tx) => {
    const row = requireReport(actor, await repo.findReportForUpdate(tx, actor.tenantId, id), { manage: true });
    if (index >= row.grants.length) throw notFound('grant');
    const grants = row.grants.filter((_, i) => i !== index);
    await repo.updateReport(tx, actor.tenantId, id, { grants });
    return toReportView({ ...row, grants }, deps.clock.now());
  });
}
