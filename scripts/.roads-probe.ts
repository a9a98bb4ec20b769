import { readOsmFile } from '../src/modules/region/osm-reader.ts';
import { buildRoadGraph } from '../src/modules/region/roads/graph.ts';
import { encodeRoadGraph } from '../src/modules/region/roads/encoding.ts';
import { roadNetworkOf } from '../src/modules/region/roads/network.ts';
import { roadMatrix } from '../src/modules/region/roads/search.ts';
let t = performance.now();
const osm = await readOsmFile('/work/wt/roads/regions/monaco.osm.pbf');
console.log('read', performance.now() - t); t = performance.now();
const g = buildRoadGraph(osm);
console.log('build', performance.now() - t, 'nodes', g.nodeLat.length, 'edges', g.edgeTo.length, 'banned', g.bannedTo.length, 'bytes', encodeRoadGraph(g).length); t = performance.now();
const net = roadNetworkOf('x', g);
console.log('index', performance.now() - t);
let seed = 1; const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
const pts = [];
while (pts.length < 1000) { const s = net.snap.snap(43.725 + rnd() * 0.03, 7.40 + rnd() * 0.045); if (s) pts.push(s); }
for (const n of [200, 1000]) { t = performance.now(); const m = roadMatrix(net.workspace, pts.slice(0, n), pts.slice(0, n)); let inf = 0; for (const v of m.seconds) if (v === Infinity) inf++; console.log(n, performance.now() - t, 'inf', inf); }
