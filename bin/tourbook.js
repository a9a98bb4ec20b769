#!/usr/bin/env node
// The tourbook command: runs the JavaScript build in dist/ (made at install by `npm run build`, see decision 0130).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.join(root, 'dist', 'main.js');

const fail = (message) => {
  process.stderr.write(`tourbook: ${message}\n`);
  process.exit(1);
};

/** The newest file under dir (sources and migrations; a deployment without src/ skips the check). */
function newest(dir, found = { file: null, mtime: 0 }) {
  if (!fs.existsSync(dir)) return found;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest(full, found);
    else if (!entry.name.endsWith('.test.ts')) {
      const mtime = fs.statSync(full).mtimeMs;
      if (mtime > found.mtime) Object.assign(found, { file: full, mtime });
    }
  }
  return found;
}

if (!fs.existsSync(entry)) fail('dist/ is missing: run `npm install` (or `npm run build`) in the project first.');
const built = fs.statSync(entry).mtimeMs;
const changed = newest(path.join(root, 'src'), newest(path.join(root, 'migrations')));
// The API guide page (/docs/guide) is rendered from docs/api-guide.md by the build too (decision 0155).
const guide = path.join(root, 'docs', 'api-guide.md');
if (fs.existsSync(guide) && fs.statSync(guide).mtimeMs > changed.mtime) Object.assign(changed, { file: guide, mtime: fs.statSync(guide).mtimeMs });
if (changed.mtime > built) {
  fail(`dist/ is older than ${path.relative(root, changed.file)}: run \`npm run build\` (about a second) and try again.`);
}
await import(pathToFileURL(entry).href);
