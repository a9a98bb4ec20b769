// Renders the map's glyphs (decision 1541): Noto Sans Regular and Bold from Debian's fonts-noto-core into the
// signed-distance-field PBF ranges MapLibre asks for (`{fontstack}/{start}-{end}.pbf`), with @mapbox/tiny-sdf on
// @napi-rs/canvas. Run by the build when the fonts are installed; the generated files are committed, so a fresh
// clone without the fonts still draws street names. `node scripts/map-glyphs.mjs [--check]`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GlobalFonts, createCanvas } from '@napi-rs/canvas';
import TinySDF from '@mapbox/tiny-sdf';
import { PbfWriter } from 'pbf';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'src/modules/region/tiles/glyphs');
const FONT_DIR = '/usr/share/fonts/truetype/noto';
const FONTS = [
  { stack: 'Noto Sans Regular', file: 'NotoSans-Regular.ttf', weight: 'normal' },
  { stack: 'Noto Sans Bold', file: 'NotoSans-Bold.ttf', weight: 'bold' },
];
// Basic Latin + Latin-1, Latin Extended-A/B, IPA/spacing marks/combining, Greek, Cyrillic, Latin Extended Additional,
// general punctuation (’ – …): the names of European cities.
const RANGES = [0, 256, 512, 768, 1024, 7680, 8192];
// MapLibre's glyph metrics (its own glyph_manager.ts for locally rendered glyphs, at 24 px with a 3 px buffer).
const FONT_SIZE = 24;
const BUFFER = 3;
const TOP_ADJUSTMENT = 27.5;

class NodeSDF extends TinySDF {
  _createCanvas(size) {
    return createCanvas(size, size);
  }
}

const skipped = (code) => code < 32 || (code >= 127 && code < 160) || (code >= 0xd800 && code < 0xe000);

function encodeRange(sdf, stack, start) {
  const pbf = new PbfWriter();
  pbf.writeMessage(1, (_, p) => {
    p.writeStringField(1, stack);
    p.writeStringField(2, `${start}-${start + 255}`);
    for (let code = start; code < start + 256; code++) {
      if (skipped(code)) continue;
      const g = sdf.draw(String.fromCharCode(code));
      if (g.glyphAdvance === 0 && g.glyphWidth === 0) continue;
      p.writeMessage(3, (_, q) => {
        q.writeVarintField(1, code);
        if (g.glyphWidth > 0 && g.glyphHeight > 0) q.writeBytesField(2, Buffer.from(g.data));
        q.writeVarintField(3, g.glyphWidth);
        q.writeVarintField(4, g.glyphHeight);
        q.writeSVarintField(5, Math.round(g.glyphLeft));
        q.writeSVarintField(6, Math.round(g.glyphTop - TOP_ADJUSTMENT));
        q.writeVarintField(7, Math.round(g.glyphAdvance));
      });
    }
  });
  return pbf.finish();
}

const missing = FONTS.filter((f) => !fs.existsSync(path.join(FONT_DIR, f.file)));
if (missing.length) {
  console.log(`map glyphs: ${missing.map((f) => f.file).join(', ')} not installed (apt-get install fonts-noto-core): the committed glyphs stay`);
  process.exit(0);
}
let written = 0;
for (const font of FONTS) {
  const family = `Tourbook ${font.stack}`;
  GlobalFonts.registerFromPath(path.join(FONT_DIR, font.file), family);
  const sdf = new NodeSDF({ fontSize: FONT_SIZE, buffer: BUFFER, radius: 8, cutoff: 0.25, fontFamily: `"${family}"`, fontWeight: font.weight });
  const dir = path.join(outDir, font.stack);
  fs.mkdirSync(dir, { recursive: true });
  for (const start of RANGES) {
    const file = path.join(dir, `${start}-${start + 255}.pbf`);
    const data = Buffer.from(encodeRange(sdf, font.stack, start));
    if (fs.existsSync(file) && fs.readFileSync(file).equals(data)) continue;
    fs.writeFileSync(file, data);
    written++;
  }
}
console.log(`map glyphs: ${FONTS.length} fonts × ${RANGES.length} ranges in ${path.relative(root, outDir)} (${written} rewritten)`);
