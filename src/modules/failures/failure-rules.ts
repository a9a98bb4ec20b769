// The failures module's rules as dispatch asks for them (the FailureRules seam, src/seams/, wired in src/hooks.ts):
// failure_options of a stop, completion_requirements.fail, package failure reasons, the reattempt copy.
import type { Actor } from '../../http/actor.ts';
import { t } from '../../http/i18n.ts';
import type { FailureRules, PackageFailureVerdict, StopFailureFacts } from '../../seams/index.ts';
import { blockerMessage } from './failure-messages.ts';
import { completionRequirementsFail, failureOptions, type FailureContext } from './failure-options.ts';
import { reasonUseProblem } from './reasons.ts';
import { reattemptStop } from './recovery.ts';
import * as repo from './repository.ts';

/** The facts dispatch holds, as the failure_options rule reads them (rendering and failStop alike). */
export function failureContext(actor: Actor, { stop, tour, bookingStops, tourStopCount, service, seesTour }: StopFailureFacts): FailureContext {
  return {
    caller: { role: actor.role, userId: actor.userId, seesTour },
    stop: { type: stop.type, status: stop.status, tourId: stop.tourId },
    tour: tour ? { status: tour.status, driverId: tour.driverId, stopCount: tourStopCount } : null,
    booking: bookingStops ? { stops: bookingStops.map((s) => ({ type: s.type, status: s.status })) } : null,
    service,
  };
}

export const failureRules: FailureRules = {
  stopFailureOptions: (actor, facts) => failureOptions(failureContext(actor, facts), (blocker) => blockerMessage(blocker, actor.lang)),
  completionRequirementsFail,
  async packageFailureVerdicts(q, actor, failures): Promise<PackageFailureVerdict[]> {
    const reasons = new Map((await repo.listPackageFailureReasons(q, actor.tenantId)).map((reason) => [reason.key, reason]));
    return failures.map((failure) => {
      const reason = reasons.get(failure.reasonKey);
      if (!reason) {
        const detail = `No package failure reason ${failure.reasonKey}; see GET /api/reasons/package_failure.`;
        return { problem: { field: 'reason_key', code: 'unknown_reference', detail } };
      }
      const problem = reasonUseProblem(reason, { stopType: failure.stopType, packageInteraction: failure.interaction, note: failure.note });
      if (problem) return { problem: { field: problem.code === 'note_required' ? 'note' : 'reason_key', code: problem.code, detail: t(actor.lang, problem.key, problem.params) } };
      return { problem: null, triggersReattempt: reason.triggersReattempt };
    });
  },
  reattemptStop,
};
