// POST /api/hailing/dispatch/plans/{id}/apply: a plan run as a job, applied as it was proposed — the tours chosen, each
// with the driver chosen — in one request and one transaction, once (contract §16, decision 1645). The page that asked
// may close at any moment: the server creates every tour or none.
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { conflict, invalidFields } from '../../../http/errors.ts';
import type { Messages } from '../../../http/i18n.ts';
import { requirePlan } from '../access.ts';
import { getTour } from '../tours/get-tours.ts';
import { applyProposal, planOutdated, type StoredProposal } from './apply-plan.ts';
import { toPlanJobView } from './plan-job.ts';
import { dispatchableDrivers } from './plan-fleet.ts';
import { selectStops } from './plan-tours.ts';
import * as repo from './repository.ts';
import type { ApplyPlanInput, PlanInput } from './schemas.ts';

export const messages: Messages = {
  'planning.plan_not_done': { en: 'The plan is {status}: only a finished plan can be applied.', de: 'Die Planung ist {status}: Nur eine fertige Planung kann übernommen werden.' },
  'planning.plan_applied': { en: 'This plan was applied already.', de: 'Diese Planung wurde bereits übernommen.' },
};

/** The proposal narrowed to the tours the body chooses (all by default), each with the driver it names; 422 at the field. */
function chosenTours(proposal: StoredProposal, body: ApplyPlanInput): StoredProposal {
  if (!body.tours) return proposal;
  const seen = new Set<number>();
  const problems = body.tours.flatMap((choice, i) => {
    const tour = proposal.tours[choice.index];
    if (!tour) return [{ pointer: `/tours/${i}/index`, code: 'out_of_range', detail: "is past the plan's tours (numbered from 0)" }];
    if (seen.has(choice.index)) return [{ pointer: `/tours/${i}/index`, code: 'duplicate', detail: 'each proposed tour at most once' }];
    seen.add(choice.index);
    if (choice.driver_id !== undefined && tour.running) return [{ pointer: `/tours/${i}/driver_id`, code: 'running_tour', detail: "a driver's tour under way keeps its driver" }];
    return [];
  });
  if (problems.length) throw invalidFields(problems);
  return {
    selected: proposal.selected,
    tours: body.tours.map((choice) => {
      const tour = proposal.tours[choice.index]!;
      return choice.driver_id === undefined ? tour : { ...tour, driver_id: choice.driver_id };
    }),
  };
}

export async function applyPlanJob(deps: Deps, actor: Actor, id: string, body: ApplyPlanInput) {
  const at = deps.clock.now();
  const applied = await deps.db.transaction(async (tx) => {
    // The plan's row is locked first: of two applies at once, the second waits and then finds it applied.
    const row = await requirePlan(tx, actor, id, { forUpdate: true });
    if (row.status !== 'done') throw conflict('plan_not_done', { key: 'planning.plan_not_done', params: { status: row.status } }, { status: row.status });
    if (row.appliedAt) throw conflict('plan_applied', { key: 'planning.plan_applied' }, { tour_ids: row.result?.tour_ids ?? [] });
    // A plan finished before proposals were kept cannot be applied as it was: plan again.
    if (!row.proposal) throw planOutdated([]);
    const proposal = chosenTours(row.proposal as unknown as StoredProposal, body);
    const named = (body.tours ?? []).flatMap((choice, i) => (choice.driver_id ? [{ driverId: choice.driver_id, i }] : []));
    if (named.length) await dispatchableDrivers(tx, actor, named.map((n) => n.driverId), (k) => `/tours/${named[k]!.i}/driver_id`, 'driver');
    const tourIds = await applyProposal(tx, deps, actor, at, row.input as unknown as PlanInput, proposal, selectStops);
    // The plan's tours name what was created; a tour left out keeps tour_id null, its stops waiting.
    const indexes = body.tours ? body.tours.map((choice) => choice.index) : proposal.tours.map((_, k) => k);
    const wireTours = Array.isArray(row.result?.tours) ? (row.result.tours as Record<string, unknown>[]) : [];
    const result = {
      ...row.result,
      applied: true,
      tour_ids: tourIds,
      tours: wireTours.map((tour, k) => {
        const at = indexes.indexOf(k);
        return at < 0 ? tour : { ...tour, tour_id: tourIds[at], ...(body.tours?.[at]?.driver_id ? { driver_id: body.tours[at].driver_id } : {}) };
      }),
    };
    await repo.markPlanApplied(tx, actor.tenantId, id, { result, appliedAt: at });
    return { row: { ...row, result, appliedAt: at }, tourIds };
  });
  const tours = [];
  for (const tourId of applied.tourIds) tours.push(await getTour(deps, actor, tourId));
  return { plan: toPlanJobView(applied.row), tours };
}
