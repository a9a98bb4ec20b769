// Li & Lim-style PDPTW instances at 400 and 1,000 tasks (issue 25), for measuring vehicle minimisation at scale
// where the published instances are not in the shared data. Li & Lim (2001) built theirs from solved VRPTW instances
// by pairing customers on the same route, so the VRPTW solution stays a feasible PDPTW solution. This does the same
// around a planted solution: points are drawn as in Solomon's and Gehring & Homberger's classes (R uniform, C
// clustered, RC half and half), cut into routes by a sweep around the depot that fills each route up to the horizon
// (type 1: short horizon, narrow windows, many routes; type 2: long horizon, wide windows, few long routes — the
// lr2/lc2 kind), each route's customers are paired at random (pickup first), and every window is placed around the
// time the planted route reaches its stop. The planted route count is the reference ("best known"): the solver
// may beat it, never needs more than it.
//
//   npm run bench -- pdptw-generate [--out DIR] [--sizes 400,1000] [--classes lc1,lc2,lr1,lr2,lrc1,lrc2] [--per 2]
// writes DIR/<size>/<class>_<size/100>_<k>.txt (Li & Lim format), DIR/<size>/solutions/*.txt (the planted routes,
// SINTEF format) and DIR/<size>/best_known.csv (the columns of the shared best_known.csv). Deterministic.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createRng, type Rng } from '../src/optimizer/prng.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  args: process.argv.slice(3),
  options: {
    out: { type: 'string', default: path.join(process.env.PDPTW_DATA ?? path.resolve(here, '../../shared/data/pdptw'), 'generated') },
    sizes: { type: 'string', default: '400,1000' },
    classes: { type: 'string', default: 'lc1,lc2,lr1,lr2,lrc1,lrc2' },
    per: { type: 'string', default: '2' },
  },
});

interface Task { x: number; y: number; demand: number; earliest: number; latest: number; service: number; pickup: number; delivery: number }

/** Standard normal (Box–Muller) from the seeded generator. */
const gauss = (rng: Rng): number => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());

function generate(size: number, cls: string, k: number): { tasks: Task[]; routes: number[][]; capacity: number; vehicles: number } {
  const rng = createRng(size * 1000 + k * 37 + [...cls].reduce((a, c) => a * 31 + c.charCodeAt(0), 7));
  const long = cls.endsWith('2');
  const kind = cls.slice(1, -1); // c, r, rc
  // Gehring & Homberger's grid grows with the instance: 0..200 at 400 customers, 0..500 at 1,000.
  const grid = size <= 400 ? 200 : 500;
  const depot = { x: grid / 2, y: grid / 2 };
  const points: { x: number; y: number }[] = [];
  const clusters = Array.from({ length: Math.max(8, Math.round(size / 40)) }, () => ({ x: 10 + rng.next() * (grid - 20), y: 10 + rng.next() * (grid - 20) }));
  const clamp = (v: number) => Math.max(0, Math.min(grid, Math.round(v)));
  for (let i = 0; i < size; i++) {
    const clustered = kind === 'c' || (kind === 'rc' && i % 2 === 0);
    if (clustered) {
      const c = clusters[rng.int(clusters.length)]!;
      points.push({ x: clamp(c.x + gauss(rng) * grid * 0.02), y: clamp(c.y + gauss(rng) * grid * 0.02) });
    } else points.push({ x: clamp(rng.next() * grid), y: clamp(rng.next() * grid) });
  }
  const service = kind === 'c' ? 90 : 10;
  const dist = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.hypot(a.x - b.x, a.y - b.y);
  // Horizon: type 1 about a dozen stops a route, type 2 about five times as many (Solomon's ratios).
  const stopsPerRoute = long ? (kind === 'c' ? 40 : 60) : kind === 'c' ? 12 : 10;
  const horizon = Math.round(stopsPerRoute * (service + (grid * 0.9) / Math.sqrt(size / 4)) + grid * 0.8);
  // Sweep by angle around the depot, and within a route visit by the nearest next point (sweep order inside).
  const order = points.map((_, i) => i).sort((a, b) => Math.atan2(points[a]!.y - depot.y, points[a]!.x - depot.x) - Math.atan2(points[b]!.y - depot.y, points[b]!.x - depot.x));
  const routes: number[][] = [];
  const times: number[] = new Array<number>(size);
  let at = 0;
  while (at < order.length) {
    // Take the next sweep slice that still fits the horizon when driven nearest-neighbour; at least two customers.
    const route: number[] = [];
    let cand = order.slice(at, at + 4 * stopsPerRoute);
    let t = 0;
    let pos = depot;
    while (cand.length) {
      let best = 0;
      for (let c = 1; c < Math.min(cand.length, 12); c++) if (dist(pos, points[cand[c]!]!) < dist(pos, points[cand[best]!]!)) best = c;
      const next = cand[best]!;
      const arrive = t + dist(pos, points[next]!);
      if (route.length >= 2 && arrive + service + dist(points[next]!, depot) > horizon) break;
      route.push(next);
      times[next] = arrive;
      t = arrive + service;
      pos = points[next]!;
      cand = cand.filter((x) => x !== next);
    }
    if (route.length % 2 === 1) route.pop();
    // The sweep slice may have left out points the route skipped: they stay for the next routes.
    const taken = new Set(route);
    const rest = order.slice(at).filter((x) => !taken.has(x));
    order.splice(at, order.length - at, ...route, ...rest);
    at += route.length;
    routes.push(route);
    if (rest.length === 1) {
      order.pop();
      break;
    }
  }
  // A route forced to take two far customers may end after the horizon: the depot closes when the last one is back.
  let closes = horizon;
  for (const route of routes) {
    const last = route[route.length - 1];
    if (last !== undefined) closes = Math.max(closes, Math.ceil(times[last]! + service + dist(points[last]!, depot)));
  }
  // Pair the customers of each route at random, pickup first (Li & Lim).
  const tasks: Task[] = [{ ...depot, demand: 0, earliest: 0, latest: closes, service: 0, pickup: 0, delivery: 0 }];
  const idOf = new Map<number, number>();
  for (const route of routes) for (const c of route) idOf.set(c, idOf.size + 1);
  let capacity = long ? 700 : 200;
  const plannedRoutes: number[][] = [];
  for (const route of routes) {
    const shuffled = [...route];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    const pos = new Map(route.map((c, i) => [c, i]));
    const demand = new Map<number, number>();
    const partner = new Map<number, [number, boolean]>();
    for (let i = 0; i + 1 < shuffled.length; i += 2) {
      let [p, d] = [shuffled[i]!, shuffled[i + 1]!];
      if (pos.get(p)! > pos.get(d)!) [p, d] = [d, p];
      const q = 10 + 10 * rng.int(4);
      demand.set(p, q);
      demand.set(d, -q);
      partner.set(p, [d, true]);
      partner.set(d, [p, false]);
    }
    let load = 0;
    for (const c of route) capacity = Math.max(capacity, (load += demand.get(c)!));
    for (const c of route) {
      const t = times[c]!;
      // Type 1: windows of 15–60 (some wide open); type 2: a quarter of the horizon or more.
      const half = long ? horizon * (0.1 + 0.15 * rng.next()) : 8 + 22 * rng.next();
      const [other, isPickup] = partner.get(c)!;
      tasks[idOf.get(c)!] = {
        x: points[c]!.x, y: points[c]!.y, demand: demand.get(c)!,
        earliest: Math.max(0, Math.floor(t - half)), latest: Math.min(closes, Math.ceil(t + half)), service,
        pickup: isPickup ? 0 : idOf.get(other)!, delivery: isPickup ? idOf.get(other)! : 0,
      };
    }
    plannedRoutes.push(route.map((c) => idOf.get(c)!));
  }
  return { tasks, routes: plannedRoutes, capacity, vehicles: routes.length };
}

const csv = ['set,size_class,instance,tasks,requests,vehicles,distance,reference,date,instance_file,solution_file'];
for (const size of values.sizes!.split(',').map(Number)) {
  const dir = path.join(values.out!, String(size));
  fs.mkdirSync(path.join(dir, 'solutions'), { recursive: true });
  const rows = [csv[0]!];
  for (const cls of values.classes!.split(',')) {
    for (let k = 1; k <= Number(values.per); k++) {
      const name = `${cls}_${size / 100}_${k}`;
      const { tasks, routes, capacity, vehicles } = generate(size, cls, k);
      const lines = [`${2 * vehicles}\t${capacity}\t1`, ...tasks.map((t, id) => [id, t.x, t.y, t.demand, t.earliest, t.latest, t.service, t.pickup, t.delivery].join('\t'))];
      fs.writeFileSync(path.join(dir, `${name}.txt`), lines.join('\r\n') + '\r\n');
      let distance = 0;
      for (const r of routes) {
        let at = 0;
        for (const id of [...r, 0]) {
          distance += Math.hypot(tasks[at]!.x - tasks[id]!.x, tasks[at]!.y - tasks[id]!.y);
          at = id;
        }
      }
      const sol = `${name}.${vehicles}_${distance.toFixed(2)}.txt`;
      fs.writeFileSync(path.join(dir, 'solutions', sol), [`Instance name : ${name}`, 'Authors : planted by bench/pdptw-generate.ts', ...routes.map((r, i) => `Route ${i + 1} : ${r.join(' ')}`)].join('\n') + '\n');
      rows.push(`generated,${size},${name},${tasks.length - 1},${(tasks.length - 1) / 2},${vehicles},${distance.toFixed(4)},planted,,generated/${size}/${name}.txt,generated/${size}/solutions/${sol}`);
      console.log(`${name}: ${tasks.length - 1} tasks, planted ${vehicles} routes, capacity ${capacity}, horizon ${tasks[0]!.latest}`);
    }
  }
  fs.writeFileSync(path.join(dir, 'best_known.csv'), rows.join('\n') + '\n');
}
