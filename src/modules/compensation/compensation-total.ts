// The compensation's components and the pure rules that change them: total = base + bonuses + tips, bonus limits.
export const MAX_BONUSES = 5;
export const MAX_AMOUNT = 100_000_000;
export const BONUS_KEY_RE = /^[a-z0-9_-]{1,64}$/;

export interface Labelled {
  amount: number;
  label: string | null;
}

export interface Bonus extends Labelled {
  key: string;
}

/** The stored components; the total is never stored apart from them, it is always this sum (decision 0601). */
export interface Components {
  base: Labelled | null;
  bonuses: Bonus[];
  tips: number;
}

export const EMPTY_COMPONENTS: Components = { base: null, bonuses: [], tips: 0 };

export const compensationTotal = (c: Components): number => (c.base?.amount ?? 0) + c.bonuses.reduce((sum, b) => sum + b.amount, 0) + c.tips;

/** One change to one component, as the history records it: `from`/`to` null mean absent. */
export interface ComponentChange {
  component: 'base' | 'bonus' | 'tips';
  key: string | null;
  from: Labelled | null;
  to: Labelled | null;
}

export type WriteResult = { ok: true; components: Components; change: ComponentChange | null } | { ok: false; reason: 'too_many_bonuses' | 'absent' };

const byKey = (a: Bonus, b: Bonus) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
const same = (a: Labelled | null, b: Labelled | null) => a?.amount === b?.amount && a?.label === b?.label;
const labelled = (x: Labelled | null): Labelled | null => (x ? { amount: x.amount, label: x.label } : null);

/** A change that changes nothing still answers 200 but records no history entry and schedules no event. */
const result = (components: Components, change: ComponentChange): WriteResult => ({ ok: true, components, change: same(change.from, change.to) ? null : change });

export function setBase(c: Components, to: Labelled): WriteResult {
  return result({ ...c, base: { amount: to.amount, label: to.label } }, { component: 'base', key: null, from: labelled(c.base), to: labelled(to) });
}

export function deleteBase(c: Components): WriteResult {
  if (!c.base) return { ok: false, reason: 'absent' };
  return result({ ...c, base: null }, { component: 'base', key: null, from: labelled(c.base), to: null });
}

/** PUT of an existing key replaces it; a sixth distinct key is refused (docs/api-guide.md "Tour compensation, tips and legacy earnings"). */
export function setBonus(c: Components, key: string, to: Labelled): WriteResult {
  const existing = c.bonuses.find((b) => b.key === key) ?? null;
  if (!existing && c.bonuses.length >= MAX_BONUSES) return { ok: false, reason: 'too_many_bonuses' };
  const bonuses = [...c.bonuses.filter((b) => b.key !== key), { key, amount: to.amount, label: to.label }].sort(byKey);
  return result({ ...c, bonuses }, { component: 'bonus', key, from: labelled(existing), to: labelled(to) });
}

export function deleteBonus(c: Components, key: string): WriteResult {
  const existing = c.bonuses.find((b) => b.key === key);
  if (!existing) return { ok: false, reason: 'absent' };
  return result({ ...c, bonuses: c.bonuses.filter((b) => b.key !== key) }, { component: 'bonus', key, from: labelled(existing), to: null });
}

/** The tips component is written only by tip distribution (the system); it carries no label. */
export function setTips(c: Components, amount: number): WriteResult {
  return result({ ...c, tips: amount }, { component: 'tips', key: null, from: { amount: c.tips, label: null }, to: { amount, label: null } });
}
