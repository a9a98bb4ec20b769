// `tourbook optimize --json` as a user runs it: its last line is the solution, which the data set's checker accepts.
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { evaluate, parseInstance } from '../../test/fixtures/pdptw/verify.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

it('prints {instance, vehicles, distance, routes, seconds} as its last line, routes in the file’s task ids', () => {
  const file = path.join(ROOT, 'test/fixtures/pdptw/lrc206.txt');
  const out = execFileSync(process.execPath, [path.join(ROOT, 'bin/tourbook.js'), 'optimize', '--instance', file, '--time-limit', '0.5', '--seed', '3', '--json'], { encoding: 'utf8' });
  const report = JSON.parse(out.trim().split('\n').at(-1)!) as { instance: string; vehicles: number; distance: number; routes: number[][]; seconds: number };
  expect(Object.keys(report)).toEqual(['instance', 'vehicles', 'distance', 'routes', 'seconds']);
  expect(report.instance).toBe('lrc206');
  const check = evaluate(parseInstance(file), report.routes);
  expect(check).toMatchObject({ feasible: true, vehicles: report.vehicles });
  expect(check.distance).toBeCloseTo(report.distance, 6);
  expect(report.seconds).toBeGreaterThan(0);
});

it('answers a missing or malformed instance file with a message and exit code 2, not a stack trace', () => {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'bin/tourbook.js'), 'optimize', '--instance', path.join(ROOT, 'package.json')], { encoding: 'utf8' });
  expect(result.status).toBe(2);
  expect(result.stderr).toMatch(/^tourbook optimize: cannot read .*package\.json: /);
  expect(result.stderr).not.toMatch(/\n\s+at /);
});
