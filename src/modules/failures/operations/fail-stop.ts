// failStop: POST /api/stops/{id}/fail — fails a tour stop with an outcome and appends its recovery stop (docs/api-guide.md "Failed stops").
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { invalidFields, unprocessable } from '../../../http/errors.ts';
import { failurePermissions } from '../permissions.ts';
import { t } from '../../../http/i18n.ts';
import { automaticGroup, failStopOnTour, lockStopForFailure, renderFailedStop } from '../../dispatch/index.ts';
import { blockerMessage } from '../failure-messages.ts';
import { outcomeBlocker, type FailureOutcome } from '../failure-options.ts';
import { failureContext } from '../failure-rules.ts';
import { findStopFailureReason, reasonUseProblem, type ReasonRecord } from '../reasons.ts';
import { recoveryPlan } from '../recovery.ts';
import type { FailStopInput } from '../schemas.ts';

/** The stop failure reason named in the body, checked before anything is locked: bad input never waits on a lock. */
function chosenReason(input: FailStopInput): ReasonRecord | null {
  if (!input.reason_key) return null;
  const reason = findStopFailureReason(input.reason_key);
  if (!reason) {
    throw invalidFields([{ pointer: '/reason_key', code: 'unknown_reference', detail: `No stop failure reason ${input.reason_key}; see GET /api/reasons/stop_failure.` }]);
  }
  return reason;
}

function checkReasonUse(reason: ReasonRecord | null, stopType: string, note: string | null, actor: Actor): void {
  if (!reason) return;
  const problem = reasonUseProblem(reason, { stopType, note });
  if (problem) {
    const pointer = problem.code === 'note_required' ? '/note' : '/reason_key';
    throw invalidFields([{ pointer, code: problem.code, detail: t(actor.lang, problem.key, problem.params) }]);
  }
}

function notAvailable(actor: Actor, outcome: FailureOutcome, blocker: NonNullable<ReturnType<typeof outcomeBlocker>>) {
  const reason = blockerMessage(blocker, actor.lang);
  return unprocessable('outcome_not_available', reason, [{ pointer: '/outcome', code: 'not_allowed', detail: reason }], { outcome, reason_key: blocker });
}

export async function failStop(deps: Deps, actor: Actor, stopId: string, input: FailStopInput) {
  failurePermissions.require(actor, 'fail_stop');
  const outcome = input.outcome ?? 'skip_recovery';
  const note = input.note?.trim() ? input.note : null;
  const reason = chosenReason(input);
  const at = deps.clock.now();

  const { failedId, recoveryId } = await deps.db.transaction(async (tx) => {
    const scene = await lockStopForFailure(tx, actor, stopId);
    // The same rule that rendered failure_options, re-checked under the locks.
    const blocker = outcomeBlocker(failureContext(actor, scene), outcome);
    if (blocker) throw notAvailable(actor, outcome, blocker);
    checkReasonUse(reason, scene.stop.type, note, actor);

    const pickup = scene.bookingStops?.find((s) => s.type === 'pickup' && s.status !== 'cancelled') ?? null;
    const plan = recoveryPlan(outcome, scene.stop, pickup, scene.service.returnStopType, automaticGroup);
    // Events are language-neutral: the English label, as the reason read at the time.
    const failure = { outcome, reason: reason ? { key: reason.key, label: reason.labels.en } : null, note };
    const recoveryId = await failStopOnTour(tx, deps.hooks.dispatch, actor, scene, failure, plan, at);
    return { failedId: scene.stop.id, recoveryId };
  });

  return renderFailedStop(deps, actor, failedId, recoveryId);
}
