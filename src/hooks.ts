// The composition root's wiring of the module seams (Deps.hooks): which module answers which other module's hooks.
import type { Hooks } from './deps.ts';
import { compensationDispatchHooks } from './modules/compensation/index.ts';
import { failureRules, seedPackageFailureReasons } from './modules/failures/index.ts';
import { liveDispatchHooks, travelTimes } from './modules/live/index.ts';
import { travelMatrix, travelRoute } from './modules/region/index.ts';
import { getSchedulingConfig } from './modules/services/index.ts';
import { wakeRecipientNotifications } from './modules/tracking/index.ts';
import { NO_DISPATCH_HOOKS, type DispatchHooks } from './seams/index.ts';

/** What a test or a bench replaces: dispatch's hooks one by one (the others stay wired), any other seam whole. */
export type HookOverrides = Partial<Omit<Hooks, 'dispatch'>> & { dispatch?: Partial<DispatchHooks> };

/**
 * Dispatch's hooks from the modules that answer them: each hook by at most one module (a second answer would silently
 * replace the first), the defaults where none does.
 */
export function answerDispatchHooks(...answers: Partial<DispatchHooks>[]): DispatchHooks {
  const wired: Partial<Record<keyof DispatchHooks, unknown>> = {};
  for (const answer of answers) {
    for (const [name, hook] of Object.entries(answer) as [keyof DispatchHooks, unknown][]) {
      if (name in wired) throw new Error(`dispatch hook ${name} is answered twice`);
      wired[name] = hook;
    }
  }
  return { ...NO_DISPATCH_HOOKS, ...(wired as Partial<DispatchHooks>) };
}

/**
 * Tours a change touched: live tracking recomputes their ETAs, and the recipients' sweep of the tenant is woken
 * (decision 1787) — two modules' reactions to one hook, in that order.
 */
const trackedToursChanged: DispatchHooks['trackedToursChanged'] = async (tx, change) => {
  await liveDispatchHooks.trackedToursChanged(tx, change);
  await wakeRecipientNotifications(tx, change);
};

/** The hooks of a running Tourbook. */
export function wireHooks(overrides: HookOverrides = {}): Hooks {
  const { dispatch, ...others } = overrides;
  return {
    // A test's or a bench's override replaces a module's answer on purpose.
    dispatch: { ...answerDispatchHooks({ ...liveDispatchHooks, trackedToursChanged }, compensationDispatchHooks), ...dispatch },
    failureRules,
    identity: {
      tenantCreated: seedPackageFailureReasons,
      schedulingConfigExists: async (q, tenantId, id) => (await getSchedulingConfig(q, tenantId, id)) !== null,
    },
    // The one source of travel times (contract §15): region/travel/matrix.ts; the drivers' positions from live.
    travel: { ...travelTimes, matrix: travelMatrix, route: travelRoute, matrixSeconds: async (deps, points, speedKmh) => (await travelMatrix(deps, points, speedKmh)).seconds },
    ...others,
  };
}
