import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compensationTotal, deleteBase, deleteBonus, EMPTY_COMPONENTS, MAX_BONUSES, setBase, setBonus, setTips, type Components, type WriteResult } from './compensation-total.ts';

const base = (amount: number, label: string | null = null) => ({ amount, label });

describe('compensation components', () => {
  it.each([
    ['nothing set', EMPTY_COMPONENTS, 0],
    ['base only', { base: base(4200), bonuses: [], tips: 0 }, 4200],
    ['base, two bonuses and tips', { base: base(4200), bonuses: [{ key: 'a', ...base(100) }, { key: 'b', ...base(50) }], tips: 300 }, 4650],
    ['tips only', { base: null, bonuses: [], tips: 7 }, 7],
  ] as [string, Components, number][])('totals %s', (_name, components, total) => {
    expect(compensationTotal(components)).toBe(total);
  });

  it('replaces a bonus written again under the same key and keeps bonuses sorted by key', () => {
    let c = EMPTY_COMPONENTS;
    for (const [key, amount] of [['night', 500], ['bulky', 200], ['night', 700]] as const) {
      const r = setBonus(c, key, base(amount, key));
      if (!r.ok) throw new Error('refused');
      c = r.components;
    }
    expect(c.bonuses).toEqual([{ key: 'bulky', amount: 200, label: 'bulky' }, { key: 'night', amount: 700, label: 'night' }]);
  });

  it('refuses a sixth bonus key but accepts replacing one of five', () => {
    let c = EMPTY_COMPONENTS;
    for (let i = 0; i < MAX_BONUSES; i++) c = (setBonus(c, `k${i}`, base(1)) as Extract<WriteResult, { ok: true }>).components;
    expect(setBonus(c, 'k9', base(1))).toEqual({ ok: false, reason: 'too_many_bonuses' });
    expect(setBonus(c, 'k0', base(2)).ok).toBe(true);
  });

  it('answers absent for deleting what is not there', () => {
    expect(deleteBase(EMPTY_COMPONENTS)).toEqual({ ok: false, reason: 'absent' });
    expect(deleteBonus(EMPTY_COMPONENTS, 'x')).toEqual({ ok: false, reason: 'absent' });
  });

  it('records from and to of a change, and no change when nothing changed', () => {
    const first = setBase(EMPTY_COMPONENTS, base(100, 'Base'));
    expect(first).toMatchObject({ ok: true, change: { component: 'base', key: null, from: null, to: { amount: 100, label: 'Base' } } });
    const again = setBase((first as Extract<WriteResult, { ok: true }>).components, base(100, 'Base'));
    expect(again).toMatchObject({ ok: true, change: null });
    expect(setTips(EMPTY_COMPONENTS, 50)).toMatchObject({ ok: true, change: { component: 'tips', from: { amount: 0, label: null }, to: { amount: 50, label: null } } });
  });
});

// A write of any kind, as the API (or tip distribution) would apply it.
const write = fc.oneof(
  fc.record({ kind: fc.constant('base' as const), amount: fc.integer({ min: 0, max: 100_000_000 }) }),
  fc.record({ kind: fc.constant('delete_base' as const) }),
  fc.record({ kind: fc.constant('bonus' as const), key: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'), amount: fc.integer({ min: 0, max: 100_000_000 }) }),
  fc.record({ kind: fc.constant('delete_bonus' as const), key: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g') }),
  fc.record({ kind: fc.constant('tips' as const), amount: fc.integer({ min: 0, max: 10_000_000 }) }),
);

describe('compensation total (property)', () => {
  it('always equals base + bonuses + tips after any sequence of writes, deletes and tip changes', () => {
    fc.assert(
      fc.property(fc.array(write, { maxLength: 60 }), (writes) => {
        let c = EMPTY_COMPONENTS;
        // An independent model: a map of what should be there.
        let modelBase = 0;
        const modelBonuses = new Map<string, number>();
        let modelTips = 0;
        for (const w of writes) {
          let r: WriteResult;
          if (w.kind === 'base') r = setBase(c, base(w.amount));
          else if (w.kind === 'delete_base') r = deleteBase(c);
          else if (w.kind === 'bonus') r = setBonus(c, w.key, base(w.amount));
          else if (w.kind === 'delete_bonus') r = deleteBonus(c, w.key);
          else r = setTips(c, w.amount);
          if (!r.ok) continue;
          c = r.components;
          if (w.kind === 'base') modelBase = w.amount;
          if (w.kind === 'delete_base') modelBase = 0;
          if (w.kind === 'bonus') modelBonuses.set(w.key, w.amount);
          if (w.kind === 'delete_bonus') modelBonuses.delete(w.key);
          if (w.kind === 'tips') modelTips = w.amount;
        }
        const expected = modelBase + [...modelBonuses.values()].reduce((a, b) => a + b, 0) + modelTips;
        expect(compensationTotal(c)).toBe(expected);
        expect(c.bonuses.length).toBeLessThanOrEqual(MAX_BONUSES);
        expect(c.bonuses.map((b) => b.key)).toEqual([...c.bonuses.map((b) => b.key)].sort());
      }),
    );
  });
});
