// The module rules of docs/architecture.md, checked on the source: modules meet only at index.ts, no import loops,
// no module's SQL names another module's tables, Deps and the layers that take it name no domain module, the pure rule
// files import types only, dispatch's sub-folders meet at their doors, access is decided in each module's doors (access.ts).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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
  'modules/tracking/recipient-sms.ts',
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

const DISPATCH = path.join(MODULES, 'dispatch');

/**
 * Dispatch's operations that another sub-folder calls, imported from their own file rather than through their
 * sub-folder's door (decision 0230): each reaches back into its callers' sub-folders, so a door that exported it would
 * load the caller's door while that door loads — a runtime import loop. The test below fails on an entry a door
 * could carry without a loop, and on one nobody imports past its door.
 */
const SIDEWAYS_OPERATIONS = [
  'bookings/create-booking.ts',
  'bookings/operations.ts',
  'packages/operations.ts',
  'packages/package-failures.ts',
  'stops/operations.ts',
  // Not an operation: the stops' repository, read by the doors (access.ts), whose seesTour the stops' views call.
  'stops/repository.ts',
  'tours/get-tours.ts',
  'tours/merge-and-insert.ts',
  'tours/operations.ts',
];

/** The sub-folder of a file of `root` (`tours` for root/tours/x.ts), or null for a file at root's top level. */
function subFolderOf(root: string, file: string): string | null {
  const parts = path.relative(root, file).split(path.sep);
  return parts.length > 1 && parts[0] !== '..' ? parts[0]! : null;
}

/**
 * The imports that pass a sub-folder's door (decision 0230): a file of `root` importing a file of another sub-folder
 * that is not that sub-folder's `index.ts`. The module's own doors (`index.ts`, `routes.ts` at its top level) gather
 * from every sub-folder; the top-level files are the shared base every sub-folder imports directly. A value import of
 * a sideways operation passes (type imports of it go through the door), and so does a rule file's value import of
 * another rule file (they import values only from one another: decision 0216). Paths in `allowed` are relative to
 * `root`.
 */
function pastSubFolderDoors(root: string, found: readonly Import[], allowed: { sideways: ReadonlySet<string>; rules: ReadonlySet<string> }): string[] {
  const within = (file: string) => path.relative(root, file).split(path.sep).join('/');
  return found
    .filter((i) => {
      if (within(i.from).startsWith('..') || within(i.to).startsWith('..')) return false;
      const target = subFolderOf(root, i.to);
      if (target === null || target === subFolderOf(root, i.from)) return false;
      if (within(i.from) === 'index.ts' || within(i.from) === 'routes.ts') return false;
      if (within(i.to) === `${target}/index.ts`) return false;
      if (!i.typeOnly && allowed.sideways.has(within(i.to))) return false;
      return i.typeOnly || !(allowed.rules.has(within(i.from)) && allowed.rules.has(within(i.to)));
    })
    .map((i) => `${within(i.from)} imports ${within(i.to)}${i.typeOnly ? ' (types)' : ''}`);
}

const dispatchRules = new Set(
  RULE_FILES.filter((file) => file.startsWith('modules/dispatch/')).map((file) => file.slice('modules/dispatch/'.length)),
);

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

  it('lets dispatch’s sub-folders meet at their doors: a cross-sub-folder import names the target’s index.ts (decision 0230)', () => {
    expect(existsSync(path.join(DISPATCH, 'tours', 'index.ts'))).toBe(true);
    expect(imports.some((i) => i.from === path.join(DISPATCH, 'settle.ts') && i.to === path.join(DISPATCH, 'tours', 'index.ts'))).toBe(true);
    const allowed = { sideways: new Set(SIDEWAYS_OPERATIONS), rules: dispatchRules };
    expect(pastSubFolderDoors(DISPATCH, imports, allowed)).toEqual([]);
  });

  it('finds the imports past a sub-folder’s door in a made-up module (the rule above can fail)', () => {
    const m = (file: string) => path.join('/m', file);
    const made: Import[] = [
      { from: m('a/x.ts'), to: m('b/index.ts'), typeOnly: false },
      { from: m('a/x.ts'), to: m('b/repository.ts'), typeOnly: false },
      { from: m('a/x.ts'), to: m('a/y.ts'), typeOnly: false },
      { from: m('a/x.ts'), to: m('shared.ts'), typeOnly: false },
      { from: m('shared.ts'), to: m('b/repository.ts'), typeOnly: true },
      { from: m('shared.ts'), to: m('b/index.ts'), typeOnly: false },
      { from: m('index.ts'), to: m('b/repository.ts'), typeOnly: false },
      { from: m('routes.ts'), to: m('b/routes.ts'), typeOnly: false },
      { from: m('a/x.ts'), to: m('b/operations.ts'), typeOnly: false },
      { from: m('a/x.ts'), to: m('b/operations.ts'), typeOnly: true },
      { from: m('a/rule.ts'), to: m('b/rule.ts'), typeOnly: false },
      { from: m('a/x.ts'), to: m('b/rule.ts'), typeOnly: false },
      { from: m('a/x.ts'), to: '/elsewhere/z.ts', typeOnly: false },
    ];
    const allowed = { sideways: new Set(['b/operations.ts']), rules: new Set(['a/rule.ts', 'b/rule.ts']) };
    expect(pastSubFolderDoors('/m', made, allowed)).toEqual([
      'a/x.ts imports b/repository.ts',
      'shared.ts imports b/repository.ts (types)',
      'a/x.ts imports b/operations.ts (types)',
      'a/x.ts imports b/rule.ts',
    ]);
  });

  it('lists a sideways operation only when its door could not carry it without a runtime loop, and while it is used', () => {
    for (const operation of SIDEWAYS_OPERATIONS) {
      const file = path.join(DISPATCH, operation);
      const door = path.join(DISPATCH, subFolderOf(DISPATCH, file)!, 'index.ts');
      const outward = new Set(['index.ts', 'routes.ts'].map((name) => path.join(DISPATCH, name)));
      const callers = imports.filter(
        (i) => i.to === file && !i.typeOnly && !outward.has(i.from) && subFolderOf(DISPATCH, i.from) !== subFolderOf(DISPATCH, file),
      );
      expect(callers.map((i) => rel(i.from)), operation).not.toEqual([]);
      // The graph as it would be with the callers going through the door and the door exporting the operation.
      const edges = new Map<string, Set<string>>([[rel(door), new Set([rel(file)])]]);
      for (const i of imports) {
        if (i.typeOnly) continue;
        const to = callers.includes(i) ? door : i.to;
        edges.set(rel(i.from), (edges.get(rel(i.from)) ?? new Set()).add(rel(to)));
      }
      expect(cyclesOf(edges).some((cycle) => cycle.includes(rel(door))), operation).toBe(true);
    }
  });
  it('keeps every source file under src/ at 400 lines or fewer (tests excluded), but the named exceptions', () => {
    // Split a file past 400 lines along what it holds (issue 35). An exception names why it stays whole.
    const EXCEPTIONS: Record<string, string> = {
      'modules/dispatch/planning/fleet.ts': 'one pure mapping, a plan with drivers to the solver and back with its diagnosis (decisions 1301, 1302): planning’s, not split in issue 35',
    };
    const long = files
      .filter((file) => !file.endsWith('.test.ts'))
      .filter((file) => readFileSync(file, 'utf8').split('\n').length > 401)
      .map(rel)
      .filter((file) => !(file in EXCEPTIONS));
    expect(long).toEqual([]);
    for (const file of Object.keys(EXCEPTIONS)) expect(existsSync(path.join(SRC, file)), file).toBe(true);
  });
});
