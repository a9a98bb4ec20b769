#!/usr/bin/env node
// npm run bench -- <name>: runs bench/<name>.ts through tsx's loader (no build step).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bench');
const name = process.argv[2];
const available = fs
  .readdirSync(benchDir)
  .filter((file) => file.endsWith('.ts') && !file.startsWith('_'))
  .map((file) => file.slice(0, -3));
if (!name || !available.includes(name)) {
  console.error(`Usage: npm run bench -- <name>\nBenchmarks: ${available.join(', ')}`);
  process.exit(2);
}
register();
await import(path.join(benchDir, `${name}.ts`));
