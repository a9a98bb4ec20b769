import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BONUS_KEY_RE, compensationTotal, deleteBase, deleteBonus, EMPTY_COMPONENTS, MAX_BONUSES, setBase, setBonus, setTips, type Components, type WriteResult } from './compensation-total.ts';

const base = (amount: number, label: string | null = null) => ({ amount, label });

describe('bonus keys', () => {
  it.each([
    ['night', true],
    ['a', true],
    ['night_shift-2', true],
    ['x'.repeat(64), true],
    ['', false],
    ['x'.repeat(65), false],
    ['Night', false],
    ['night shift', false],
    ['night.shift', false],
    ['nacht-ä', false],
    ['!night', false],
    ['night!', false],
  ])('%j is a bonus key: %s', (key, valid) => {
    expect(BONUS_KEY_RE.test(key)).toBe(valid);
  });
});

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

  it('answers absent for a missing bonus key while other bonuses exist, and keeps them', () => {
    const c: Components = { base: null, bonuses: [{ key: 'bulky', amount: 200, label: null }, { key: 'night', amount: 500, label: 'Night' }], tips: 0 };
    expect(deleteBonus(c, 'weekend')).toEqual({ ok: false, reason: 'absent' });
    expect(c.bonuses.map((b) => b.key)).toEqual(['bulky', 'night']);
  });

  it('deletes the named bonus and records that one, not another', () => {
    const c: Components = { base: base(4200), bonuses: [{ key: 'bulky', amount: 200, label: null }, { key: 'night', amount: 500, label: 'Night' }], tips: 9 };
    expect(deleteBonus(c, 'night')).toEqual({
      ok: true,
      components: { base: base(4200), bonuses: [{ key: 'bulky', amount: 200, label: null }], tips: 9 },
      change: { component: 'bonus', key: 'night', from: { amount: 500, label: 'Night' }, to: null },
    });
  });

  it('records a base deletion as a change of the base, from its amount and label to nothing', () => {
    const c: Components = { base: base(4200, 'Day rate'), bonuses: [{ key: 'night', amount: 500, label: null }], tips: 0 };
    expect(deleteBase(c)).toEqual({
      ok: true,
      components: { base: null, bonuses: [{ key: 'night', amount: 500, label: null }], tips: 0 },
      change: { component: 'base', key: null, from: { amount: 4200, label: 'Day rate' }, to: null },
    });
  });

  it.each([
    ['a label-only change of the base', (c: Components) => setBase(c, base(4200, 'Night rate')), { component: 'base', key: null, from: base(4200, 'Day rate'), to: base(4200, 'Night rate') }],
    ['a label removed from the base', (c: Components) => setBase(c, base(4200)), { component: 'base', key: null, from: base(4200, 'Day rate'), to: base(4200) }],
    ['an amount-only change of the base', (c: Components) => setBase(c, base(4300, 'Day rate')), { component: 'base', key: null, from: base(4200, 'Day rate'), to: base(4300, 'Day rate') }],
    ['a label-only change of a bonus', (c: Components) => setBonus(c, 'night', base(500, 'Late night')), { component: 'bonus', key: 'night', from: base(500, 'Night'), to: base(500, 'Late night') }],
    ['a new bonus', (c: Components) => setBonus(c, 'bulky', base(0)), { component: 'bonus', key: 'bulky', from: null, to: base(0) }],
    ['tips', (c: Components) => setTips(c, 0), null],
    ['the same base again', (c: Components) => setBase(c, base(4200, 'Day rate')), null],
    ['the same bonus again', (c: Components) => setBonus(c, 'night', base(500, 'Night')), null],
  ] as [string, (c: Components) => WriteResult, unknown][])('records %s as %j', (_name, write, change) => {
    const c: Components = { base: base(4200, 'Day rate'), bonuses: [{ key: 'night', amount: 500, label: 'Night' }], tips: 0 };
    expect(write(c)).toMatchObject({ ok: true, change });
  });

  it('stores a set base as given and leaves the other components alone', () => {
    const c: Components = { base: null, bonuses: [{ key: 'night', amount: 500, label: null }], tips: 30 };
    expect(setBase(c, base(100, 'Base'))).toMatchObject({ components: { base: base(100, 'Base'), bonuses: [{ key: 'night', amount: 500, label: null }], tips: 30 } });
    expect(setTips(c, 40)).toMatchObject({ components: { base: null, bonuses: [{ key: 'night', amount: 500, label: null }], tips: 40 } });
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
        let modelBase: number | null = null;
        const modelBonuses = new Map<string, number>();
        let modelTips = 0;
        for (const w of writes) {
          let r: WriteResult;
          if (w.kind === 'base') r = setBase(c, base(w.amount));
          else if (w.kind === 'delete_base') r = deleteBase(c);
          else if (w.kind === 'bonus') r = setBonus(c, w.key, base(w.amount));
          else if (w.kind === 'delete_bonus') r = deleteBonus(c, w.key);
          else r = setTips(c, w.amount);
          // The model decides on its own whether a write is refused: a missing key or base, or a sixth bonus key.
          const refused =
            (w.kind === 'delete_base' && modelBase === null) ||
            (w.kind === 'delete_bonus' && !modelBonuses.has(w.key)) ||
            (w.kind === 'bonus' && !modelBonuses.has(w.key) && modelBonuses.size >= 5);
          expect(r.ok).toBe(!refused);
          if (!r.ok) continue;
          c = r.components;
          if (w.kind === 'base') modelBase = w.amount;
          if (w.kind === 'delete_base') modelBase = null;
          if (w.kind === 'bonus') modelBonuses.set(w.key, w.amount);
          if (w.kind === 'delete_bonus') modelBonuses.delete(w.key);
          if (w.kind === 'tips') modelTips = w.amount;
        }
        const expected = (modelBase ?? 0) + [...modelBonuses.values()].reduce((a, b) => a + b, 0) + modelTips;
        expect(compensationTotal(c)).toBe(expected);
        expect(c.bonuses.length).toBeLessThanOrEqual(MAX_BONUSES);
        expect(c.bonuses.map((b) => [b.key, b.amount])).toEqual([...modelBonuses.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
      }),
    );
  });
});
