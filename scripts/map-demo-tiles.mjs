// Regenerates the demo region's prebuilt tiles (decision 1540): tilemaker over the demo extract with our schema
// (src/modules/region/tiles/tilemaker-*.{json,lua}) into the .mbtiles next to it, which the import stores where
// tilemaker is not installed. `node scripts/map-demo-tiles.mjs [extract.osm.pbf]` (needs Debian's tilemaker).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const schema = path.join(root, 'src/modules/region/tiles');
const extract = path.resolve(process.argv[2] ?? path.join(root, 'regions/monaco.osm.pbf'));
const output = path.join(path.dirname(extract), `${path.basename(extract).replace(/(\.osm)?\.pbf$/i, '')}.mbtiles`);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-demo-tiles-'));
try {
  const temp = path.join(work, 'region.mbtiles');
  execFileSync('tilemaker', ['--input', extract, '--output', temp, '--config', path.join(schema, 'tilemaker-config.json'), '--process', path.join(schema, 'tilemaker-process.lua')], { cwd: work, stdio: ['ignore', 'ignore', 'inherit'] });
  fs.copyFileSync(temp, output);
  console.log(`demo tiles: ${path.relative(root, output)} (${Math.round(fs.statSync(output).size / 1024)} kB)`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
