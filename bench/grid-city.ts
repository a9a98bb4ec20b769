// A generated grid city for the region import's scale figures (issue 38; bench/maps.ts): side × side road nodes on a
// square grid 80 m apart, one named residential street per row and column (every fifth a two-lane secondary road, every
// seventh one-way), and a house number on every other node — written as OSM XML and converted to .osm.pbf with osmium
// (Debian's osmium-tool). `npx tsx bench/grid-city.ts <nodes> <out.osm.pbf>`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Writes the city of about `nodes` road nodes (rounded to a square) to `out` and returns the exact count. */
export function writeGridCity(nodes: number, out: string): { nodes: number; ways: number } {
  const side = Math.max(2, Math.round(Math.sqrt(nodes)));
  const xml = `${out}.osm`;
  const fd = fs.openSync(xml, 'w');
  const write = (s: string) => fs.writeSync(fd, s);
  // South-west corner in an empty stretch of the Atlantic (no real region overlaps it); 80 m steps.
  const [lat0, lng0] = [30, -40];
  const dLat = 80 / 111_320;
  const dLng = dLat / Math.cos((lat0 * Math.PI) / 180);
  write(`<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="tourbook-grid-city">\n`);
  write(`<bounds minlat="${lat0}" minlon="${lng0}" maxlat="${(lat0 + side * dLat).toFixed(7)}" maxlon="${(lng0 + side * dLng).toFixed(7)}"/>\n`);
  const id = (r: number, c: number) => r * side + c + 1;
  for (let r = 0; r < side; r++) {
    let chunk = '';
    for (let c = 0; c < side; c++) {
      const at = `lat="${(lat0 + r * dLat).toFixed(7)}" lon="${(lng0 + c * dLng).toFixed(7)}"`;
      chunk +=
        (r + c) % 2 === 0
          ? `<node id="${id(r, c)}" version="1" ${at}><tag k="addr:street" v="Row ${r + 1} Street"/><tag k="addr:housenumber" v="${c + 1}"/><tag k="addr:city" v="Grid City"/><tag k="addr:postcode" v="${10000 + (r % 90)}"/></node>\n`
          : `<node id="${id(r, c)}" version="1" ${at}/>\n`;
    }
    write(chunk);
  }
  let way = 1;
  const street = (refs: number[], name: string, k: number) => {
    const kind = k % 5 === 0 ? 'secondary' : 'residential';
    const oneway = k % 7 === 3 ? '<tag k="oneway" v="yes"/>' : '';
    write(`<way id="${way++}" version="1">${refs.map((ref) => `<nd ref="${ref}"/>`).join('')}<tag k="highway" v="${kind}"/><tag k="name" v="${name}"/>${oneway}</way>\n`);
  };
  for (let r = 0; r < side; r++) street(Array.from({ length: side }, (_, c) => id(r, c)), `Row ${r + 1} Street`, r);
  for (let c = 0; c < side; c++) street(Array.from({ length: side }, (_, r) => id(r, c)), `Column ${c + 1} Avenue`, c);
  write('</osm>\n');
  fs.closeSync(fd);
  fs.rmSync(out, { force: true });
  execFileSync('osmium', ['cat', xml, '-o', out, '--overwrite'], { stdio: ['ignore', 'ignore', 'inherit'] });
  fs.rmSync(xml);
  return { nodes: side * side, ways: way - 1 };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [nodes, out] = [Number(process.argv[2] ?? 100_000), process.argv[3] ?? 'grid-city.osm.pbf'];
  console.log(writeGridCity(nodes, out));
}
