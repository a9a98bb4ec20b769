// The module rules of docs/architecture.md, checked on the source: modules meet only at index.ts, no import loops,
// no module's SQL names another module's tables, Deps and the layers that take it name no domain module, the pure rule
// files import types only, access is decided in each module's doors (access.ts).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname);
const MODULES = path.join(SRC, 'modules');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

interface Import {
  from: string;
  to: string;
  /** `import type` / `export type`: erased at run time, so it cannot close a loop that runs. */
  typeOnly: boolean;
}

const IMPORT_RE = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?'(\.{1,2}\/[^']+)'|import\(\s*'(\.{1,2}\/[^']+)'\s*\)/g;

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const found: Import[] = [];
  for (const match of text.matchAll(IMPORT_RE)) {
    const spec = match[3] ?? match[4];
    if (!spec) continue;
    found.push({ from: file, to: path.resolve(path.dirname(file), spec), typeOnly: Boolean(match[2]) });
  }
  return found;
}

/** The module a file belongs to (`dispatch` for src/modules/dispatch/tours/x.ts), or null outside src/modules. */
function moduleOf(file: string): string | null {
  const relative = path.relative(MODULES, file);
  if (relative.startsWith('..')) return null;
  const [name, ...rest] = relative.split(path.sep);
  return rest.length ? (name ?? null) : null;
}

const rel = (file: string) => path.relative(SRC, file);
const files = sourceFiles(SRC);
const imports = files.flatMap(importsOf);

/**
 * The pure rule files (docs/architecture.md "Request path"; the mutated ones of decision 0165 among them): tested with
 * tables, no I/O. They import types only (decision 0216); a value only from another file of this list or from the
 * domain's closed lists below the modules (src/shared/domain-constants.ts, decision 0215), so that loading one never
 * loads a database, a logger or a message catalog.
 */
const RULE_FILES = [
  'modules/busyness/busyness.ts',
  'modules/compensation/compensation-total.ts',
  'modules/compensation/tip-eligibility.ts',
  'modules/dispatch/auto-dispatch/cheapest-insertion.ts',
  'modules/dispatch/bookings/booking-status.ts',
  'modules/dispatch/planning/problem.ts',
  'modules/dispatch/stops/tour-order.ts',
  'modules/dispatch/tours/tour-machine.ts',
  'modules/dispatch/visibility.ts',
  'modules/failures/failure-options.ts',
  'modules/failures/recovery.ts',
  'modules/identity/rules.ts',
  'modules/live/coalescing.ts',
  'modules/live/eta.ts',
  'modules/live/geo.ts',
  'modules/live/ingestion.ts',
  'modules/reports/report-machine.ts',
  'modules/services/rules.ts',
  'modules/webhooks/retry-schedule.ts',
  // The solver's feasibility code (mutated too): domain-free, but pure on the same terms.
  'optimizer/insertion.ts',
  'optimizer/route-state.ts',
];
const RULE_VALUE_SOURCES = new Set([...RULE_FILES, 'shared/domain-constants.ts']);

/** Every import or re-export with a source (relative or a package), and whether it is `import type` / `export type`. */
function specifiersOf(file: string): { spec: string; typeOnly: boolean }[] {
  const text = readFileSync(file, 'utf8');
  const found: { spec: string; typeOnly: boolean }[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?'([^']+)'/g)) {
    found.push({ spec: match[3]!, typeOnly: Boolean(match[2]) });
  }
  for (const match of text.matchAll(/import\(\s*'([^']+)'\s*\)/g)) found.push({ spec: match[1]!, typeOnly: false });
  return found;
}

/** Cycles of a directed graph (one per strongly connected component with more than one node, or a self-loop). */
function cyclesOf(edges: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    indices.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, indices.get(next)!));
      }
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || edges.get(node)?.has(node)) components.push(component.sort());
    }
  };
  for (const node of edges.keys()) if (!indices.has(node)) visit(node);
  return components;
}

describe('module boundaries', () => {
  it('sees the modules and their imports (the checks below are not vacuous)', () => {
    const modules = new Set(files.map(moduleOf).filter((m): m is string => m !== null));
    expect(modules).toContain('dispatch');
    expect(modules).toContain('failures');
    expect(imports.some((i) => moduleOf(i.from) === 'failures' && moduleOf(i.to) === 'dispatch')).toBe(true);
  });

  it('lets a module import another module only through its index.ts', () => {
    const violations = imports
      .filter((i) => {
        const from = moduleOf(i.from);
        const to = moduleOf(i.to);
        return from !== null && to !== null && from !== to && i.to !== path.join(MODULES, to, 'index.ts');
      })
      .map((i) => `${rel(i.from)} imports ${rel(i.to)}`);
    expect(violations).toEqual([]);
  });

  it('has no import loop between modules (type imports included)', () => {
    const edges = new Map<string, Set<string>>();
    for (const i of imports) {
      const from = moduleOf(i.from);
      const to = moduleOf(i.to);
      if (from === null || to === null || from === to) continue;
      edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
    expect(cyclesOf(edges)).toEqual([]);
  });

  it('has no import loop between files (type imports aside: they are erased)', () => {
    const edges = new Map<string, Set<string>>();
    for (const i of imports) {
      if (i.typeOnly) continue;
      edges.set(rel(i.from), (edges.get(rel(i.from)) ?? new Set()).add(rel(i.to)));
    }
    expect(cyclesOf(edges)).toEqual([]);
  });

  it('keeps Deps below the modules: what src/deps.ts imports, type imports included, names no module (decision 0212)', () => {
    // The database handle is typed by every table (db/schema.ts gathers each module's tables.ts): that is the one
    // place the generic layers meet module files, and the walk stops there.
    const below = new Set([path.join(SRC, 'db', 'schema.ts')]);
    const reached = new Set([path.join(SRC, 'deps.ts')]);
    const queue = [...reached];
    while (queue.length) {
      const file = queue.shift()!;
      if (below.has(file)) continue;
      for (const i of imports) {
        if (i.from !== file || reached.has(i.to)) continue;
        reached.add(i.to);
        queue.push(i.to);
      }
    }
    expect(reached).toContain(path.join(SRC, 'seams', 'index.ts'));
    expect([...reached].filter((file) => moduleOf(file) !== null).map(rel)).toEqual([]);
  });

  it('has no import loop, type imports included, through Deps or the generic layers that take it (http/, compat/, worker/)', () => {
    const edges = new Map<string, Set<string>>();
    for (const i of imports) edges.set(rel(i.from), (edges.get(rel(i.from)) ?? new Set()).add(rel(i.to)));
    const generic = (file: string) => file === 'deps.ts' || /^(http|compat|worker)\//.test(file);
    expect(cyclesOf(edges).filter((cycle) => cycle.some(generic))).toEqual([]);
  });

  it('never names another module’s table in SQL', () => {
    // Each module's tables, by the name pgTable gives them.
    const owner = new Map<string, string>();
    for (const file of files.filter((f) => path.basename(f) === 'tables.ts' && moduleOf(f) !== null)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/pgTable\(\s*'([a-z_]+)'/g)) owner.set(match[1]!, moduleOf(file)!);
    }
    expect(owner.get('bookings')).toBe('dispatch');
    const violations: string[] = [];
    for (const file of files.filter((f) => moduleOf(f) !== null && !f.endsWith('.test.ts'))) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\b(?:FROM|JOIN|UPDATE|INTO)\s+"?([a-z_]+)"?/g)) {
        const table = match[1]!;
        const module = owner.get(table);
        if (module && module !== moduleOf(file)) violations.push(`${rel(file)} names ${module}'s table ${table}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('lets the pure rule files import types only (values from one another or src/shared/domain-constants.ts)', () => {
    const missing = RULE_FILES.filter((file) => !files.includes(path.join(SRC, file)));
    expect(missing).toEqual([]);
    const violations = RULE_FILES.flatMap((file) =>
      specifiersOf(path.join(SRC, file))
        .filter((i) => !i.typeOnly)
        .filter((i) => !i.spec.startsWith('.') || !RULE_VALUE_SOURCES.has(rel(path.resolve(SRC, path.dirname(file), i.spec))))
        .map((i) => `${file} imports values from ${i.spec}`),
    );
    expect(violations).toEqual([]);
  });

  it('sees a value import in a rule file (the check above is not vacuous)', () => {
    const all = RULE_FILES.flatMap((file) => specifiersOf(path.join(SRC, file)).map((i) => ({ file, ...i })));
    expect(all.some((i) => i.file === 'modules/live/ingestion.ts' && !i.typeOnly && i.spec === './geo.ts')).toBe(true);
    expect(all.some((i) => i.file === 'modules/dispatch/visibility.ts' && i.typeOnly && i.spec === '../../http/actor.ts')).toBe(true);
  });

  it('decides access in the doors: no module file but access.ts, permissions.ts and the rule files compares the caller’s role (decision 0219)', () => {
    // The caller is `actor`, `viewer` or `caller`; a referenced user's role (`customer.role !== 'customer'`) is a
    // reference check, not access, and is not matched.
    const comparesRole = /\b(?:actor|viewer|caller)\.role\s*[!=]==|[!=]==\s*(?:actor|viewer|caller)\.role\b|switch\s*\(\s*(?:actor|viewer|caller)\.role\s*\)|(?<![.\w])role\s*[!=]==\s*'(?:admin|manager|driver|customer)'/;
    const allowed = (file: string) => ['access.ts', 'permissions.ts'].includes(path.basename(file)) || RULE_FILES.includes(rel(file));
    const moduleFiles = files.filter((f) => moduleOf(f) !== null && !f.endsWith('.test.ts'));
    const lines = (file: string) => readFileSync(file, 'utf8').split('\n').flatMap((line, i) => (comparesRole.test(line) ? [`${rel(file)}:${i + 1}`] : []));
    expect(moduleFiles.filter((f) => !allowed(f)).flatMap(lines)).toEqual([]);
    // Not vacuous: the doors do compare roles.
    expect(lines(path.join(MODULES, 'live', 'access.ts')).length).toBeGreaterThan(0);
  });

  it('names one door per resource: the old access predicates are gone, the visibility rule is called only by the doors (decision 0219)', () => {
    const old = /\b(?:canSee|visibleBooking|visibleTour|seenTour|authorizedTour|visibleTourSummary|visibleSummaryOf|findVisibleTour|visibleStop|visiblePackage|visibleOr404|manageableOr404|writableShift)\b/;
    const source = files.filter((f) => !f.endsWith('.test.ts'));
    const mentions = (pattern: RegExp) => (file: string) =>
      readFileSync(file, 'utf8').split('\n').flatMap((line, i) => (pattern.test(line) ? [`${rel(file)}:${i + 1}`] : []));
    expect(source.flatMap(mentions(old))).toEqual([]);
    // canSeeTour and canSeeBooking are the rule (visibility.ts); the doors apply it, dispatch's index hands it to live's.
    const rule = /\bcanSee(?:Tour|Booking)\b/;
    const passing = new Set(['modules/dispatch/visibility.ts', 'modules/dispatch/index.ts', 'modules/live/dispatch-port.ts']);
    const callers = source.filter((f) => path.basename(f) !== 'access.ts' && !passing.has(rel(f))).flatMap(mentions(rule));
    expect(callers).toEqual([]);
    const doors = files.filter((f) => path.basename(f) === 'access.ts' && moduleOf(f) !== null);
    expect(doors.filter((f) => !/export (?:async )?function require[A-Z]\w*/.test(readFileSync(f, 'utf8'))).map(rel)).toEqual([]);
    expect(doors.map(rel)).toContain('modules/dispatch/access.ts');
  });

  it('spells the domain’s closed lists once, in src/shared/domain-constants.ts', () => {
    const lists = [/'skip_recovery',\s*'reattempt_later',\s*'reattempt_now'/, /\[\s*'completed',\s*'failed',\s*'cancelled'\s*\]/];
    const home = path.join(SRC, 'shared/domain-constants.ts');
    expect(lists.every((list) => list.test(readFileSync(home, 'utf8')))).toBe(true);
    const copies = files
      .filter((file) => file !== home && !file.endsWith('.test.ts'))
      .filter((file) => lists.some((list) => list.test(readFileSync(file, 'utf8'))))
      .map(rel);
    expect(copies).toEqual([]);
  });

  it('cites only documents the repository holds (the API guide, docs/, decisions), never ones outside it', () => {
    const root = path.resolve(SRC, '..');
    const folders = ['src', 'web', 'test', 'bench', 'scripts'].map((folder) => path.join(root, folder));
    const everyFile = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : everyFile(full);
        return /\.(ts|tsx|mjs|js)$/.test(entry.name) ? [full] : [];
      });
    const scanned = folders.flatMap(everyFile);
    expect(scanned.length).toBeGreaterThan(100);
    const outside = /\b(SPEC|CONTRACT|DESIGN|STYLE)\.md\b|\b(CONTRACT|DESIGN) §|\bSPEC (visibility|Versioning)\b/;
    const violations = scanned.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) => (outside.test(line) ? [`${path.relative(root, file)}:${index + 1}`] : [])),
    );
    expect(violations).toEqual([]);
  });
});
