// Runs the whole suite on embedded PGlite, then — when TEST_DATABASE_URL is set — again on PostgreSQL,
// and closes with one plain summary line over both runs.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const totals = { passed: 0, failed: 0, skipped: 0 };
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-vitest-'));

const run = (label, env, extra = []) => {
  console.log(`\n=== test suite on ${label} ===`);
  const report = path.join(reportDir, `${totals.passed + totals.failed}-${Date.now()}.json`);
  const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...extra, ...process.argv.slice(2)];
  const result = spawnSync('npx', args, { stdio: 'inherit', env });
  if (fs.existsSync(report)) {
    const summary = JSON.parse(fs.readFileSync(report, 'utf8'));
    totals.passed += summary.numPassedTests;
    totals.failed += summary.numFailedTests;
    totals.skipped += summary.numPendingTests + summary.numTodoTests;
  }
  if (result.status !== 0) {
    console.log(`\nTests: ${totals.passed} passed, ${Math.max(totals.failed, 1)} failed, ${totals.skipped} skipped`);
    process.exit(result.status ?? 1);
  }
};

const { TEST_DATABASE_URL, ...embeddedEnv } = process.env;
run('embedded PGlite', embeddedEnv);
// The browser tests run once, on the first run: the pages and the server behind them are the same code on both
// databases, whose differences the API suite covers; run twice they took a third of a CI run (docs/testing.md).
if (TEST_DATABASE_URL) run(`PostgreSQL (${new URL(TEST_DATABASE_URL).host})`, process.env, ['--exclude', 'test/browser/**']);
fs.rmSync(reportDir, { recursive: true, force: true });
console.log(`\nTests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
