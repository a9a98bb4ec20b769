// Runs the whole suite on embedded PGlite, then — when TEST_DATABASE_URL is set — again on PostgreSQL.
import { spawnSync } from 'node:child_process';

const run = (label, env) => {
  console.log(`\n=== test suite on ${label} ===`);
  const result = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], { stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

const { TEST_DATABASE_URL, ...embeddedEnv } = process.env;
run('embedded PGlite', embeddedEnv);
if (TEST_DATABASE_URL) run(`PostgreSQL (${new URL(TEST_DATABASE_URL).host})`, process.env);
