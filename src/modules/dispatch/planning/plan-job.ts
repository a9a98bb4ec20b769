// Plans that take longer than a request should run as a job (decision 1302): the request (plan-tours.ts) checks the
// input, stores the plan as `running` and answers 202; the worker plans (and applies), stores the answer, and records
// `dispatch.plan_ready`. GET /api/hailing/dispatch/plans/{id} shows it to whoever asked for it, and to admins.
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { AppError, toProblem } from '../../../http/errors.ts';
import { recordEvent } from '../../../events/outbox.ts';
import { iso, isoOrNull } from '../../../shared/time.ts';
import type { JobHandler } from '../../../worker/registry.ts';
import { requirePlan } from '../access.ts';
import { planNow } from './plan-tours.ts';
import * as repo from './repository.ts';
import type { PlanInput } from './schemas.ts';

export function toPlanJobView(row: repo.PlanRow) {
  return {
    id: row.id,
    status: row.status,
    created_at: iso(row.createdAt),
    finished_at: isoOrNull(row.finishedAt),
    ...(row.error ? { error: row.error } : {}),
    ...(row.result ?? {}),
  };
}

export async function getPlanJob(deps: Deps, actor: Actor, id: string) {
  return toPlanJobView(await requirePlan(deps.db, actor, id));
}

export const runPlanJob: JobHandler = async (deps, job) => {
  const row = await repo.findPlan(deps.db, job.tenantId, String(job.payload.plan_id));
  if (!row || row.status !== 'running') return;
  const actor = row.actor as unknown as Actor;
  let patch: Pick<repo.PlanRow, 'status' | 'result' | 'error' | 'finishedAt' | 'proposal' | 'appliedAt'>;
  let tourIds: string[] = [];
  let unplaced = 0;
  try {
    const input = row.input as unknown as PlanInput;
    const { plan, tourIds: ids, proposal } = await planNow(deps, actor, input);
    tourIds = ids;
    unplaced = Array.isArray(plan.unplaced) ? plan.unplaced.length : 0;
    const finishedAt = deps.clock.now();
    // A proposal is kept for POST …/apply (decision 1645); a plan applied by its job is applied once already.
    patch = { status: 'done', result: { ...plan, tour_ids: ids }, error: null, finishedAt, proposal: input.apply ? null : { ...proposal }, appliedAt: input.apply ? finishedAt : null };
  } catch (err) {
    // A plan that cannot be made (a stop dispatched meanwhile, a driver gone) fails with the error the request would have had.
    const problem = err instanceof AppError ? toProblem(err, actor.lang) : null;
    if (!problem) deps.log.error({ err, plan_id: row.id }, 'plan job failed');
    patch = { status: 'failed', result: null, error: problem ? { error_code: problem.error_code, detail: problem.detail } : { error_code: 'internal_error', detail: 'The plan could not be made.' }, finishedAt: deps.clock.now(), proposal: null, appliedAt: null };
  }
  await deps.db.transaction(async (tx) => {
    await repo.finishPlan(tx, row.tenantId, row.id, patch);
    await recordEvent(tx, {
      tenantId: row.tenantId,
      actor,
      type: 'dispatch.plan_ready',
      resourceId: row.id,
      at: patch.finishedAt!,
      data: { plan_id: row.id, status: patch.status, applied: patch.status === 'done' && (row.input as { apply?: boolean }).apply === true, tour_ids: tourIds, unplaced_count: unplaced },
    });
  });
};
