// Compiles src/ to dist/ (JavaScript and declarations) with the repository's TypeScript; the generated schema.d.ts
// is declarations only, so tsc does not emit it: it is copied beside index.d.ts, which imports it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const here = import.meta.dirname;
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
fs.rmSync(path.join(here, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', path.join(here, 'tsconfig.build.json')], { stdio: 'inherit' });
fs.copyFileSync(path.join(here, 'src', 'schema.d.ts'), path.join(here, 'dist', 'schema.d.ts'));
