// The composition root's wiring: one answer per dispatch hook, the defaults where no module answers.
import { describe, expect, it } from 'vitest';
import { answerDispatchHooks, wireHooks } from './hooks.ts';
import { NO_DISPATCH_HOOKS, type DispatchHooks } from './seams/index.ts';

describe('the dispatch hooks wiring', () => {
  it('refuses a hook answered by two modules instead of letting the last one win', () => {
    const first = { trackedToursChanged: async () => undefined };
    const second = { trackedToursChanged: async () => undefined };
    expect(() => answerDispatchHooks(first, second)).toThrow('dispatch hook trackedToursChanged is answered twice');
  });

  it('takes each answer once and the no-op defaults elsewhere', async () => {
    const stopEtas = async () => new Map([['stop', { tourId: 'tour', eta: new Date(0), travelSource: 'road_network' as const }]]);
    const hooks = answerDispatchHooks({ stopEtas });
    expect(hooks.stopEtas).toBe(stopEtas);
    expect(hooks.tipOutcomeRead).toBeNull();
    expect(await hooks.tipDistribution(null as never, 't', [], { fresh: true })).toEqual(new Map());
  });

  it('wires every module answer of a running Tourbook without a clash', () => {
    const hooks = wireHooks();
    expect(hooks.dispatch.tipOutcomeRead).not.toBeNull();
    expect(hooks.dispatch.stopEtas).not.toBe(answerDispatchHooks().stopEtas);
  });

  it('has a module answer every dispatch hook: none is left to its no-op default (decision 0211)', () => {
    const hooks = wireHooks();
    const unanswered = (Object.keys(NO_DISPATCH_HOOKS) as (keyof DispatchHooks)[]).filter((name) => hooks.dispatch[name] === NO_DISPATCH_HOOKS[name]);
    expect(unanswered).toEqual([]);
  });
});
