// Renders the map's glyphs (decision 1541): Noto Sans Regular and Bold from Debian's fonts-noto-core into the
// signed-distance-field PBF ranges MapLibre asks for (`{fontstack}/{start}-{end}.pbf`), with @mapbox/tiny-sdf on
// @napi-rs/canvas. The generated files are committed, so a fresh clone without the fonts still draws street names;
// the build renders them again only when a range is missing or they are stale (decision 1722): glyphs/stamp.json
// holds the hashes of this script and of the fonts they were rendered from. `node scripts/map-glyphs.mjs`.
import crypto from 'node:crypto';
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

const STAMP = path.join(outDir, 'stamp.json');
const sha = (file) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** What the glyphs would be rendered from now: this script and the installed fonts (null: a font is missing). */
function sources() {
  const fonts = {};
  for (const font of FONTS) {
    const file = path.join(FONT_DIR, font.file);
    if (!fs.existsSync(file)) return null;
    fonts[font.file] = sha(file);
  }
  return { script: sha(fileURLToPath(import.meta.url)), fonts };
}

/**
 * Whether the committed glyphs must be rendered again: a range file missing, or rendered by another version of this
 * script or from other fonts than the installed ones. Without the fonts, only the script's hash is compared (the
 * committed files stand for what the fonts were).
 */
export function glyphsStale() {
  const missingFiles = FONTS.some((font) => RANGES.some((start) => !fs.existsSync(path.join(outDir, font.stack, `${start}-${start + 255}.pbf`))));
  const stamp = fs.existsSync(STAMP) ? JSON.parse(fs.readFileSync(STAMP, 'utf8')) : null;
  const now = sources();
  if (missingFiles || !stamp) return { stale: true, fontsInstalled: now !== null, why: missingFiles ? 'a range is missing' : 'no stamp' };
  if (stamp.script !== sha(fileURLToPath(import.meta.url))) return { stale: true, fontsInstalled: now !== null, why: 'the script changed' };
  if (now && JSON.stringify(stamp.fonts) !== JSON.stringify(now.fonts)) return { stale: true, fontsInstalled: true, why: 'the fonts changed' };
  return { stale: false, fontsInstalled: now !== null, why: 'up to date' };
}

/** Renders every range; without the fonts, says so and keeps the committed files. */
export function renderGlyphs() {
  const now = sources();
  if (!now) {
    const missing = FONTS.filter((f) => !fs.existsSync(path.join(FONT_DIR, f.file)));
    console.log(`map glyphs: ${missing.map((f) => f.file).join(', ')} not installed (apt-get install fonts-noto-core): the committed glyphs stay`);
    return 0;
  }
  const written = renderRanges();
  fs.writeFileSync(STAMP, JSON.stringify(now, null, 2) + '\n');
  console.log(`map glyphs: ${FONTS.length} fonts × ${RANGES.length} ranges in ${path.relative(root, outDir)} (${written} rewritten)`);
  return written;
}

function renderRanges() {
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
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) renderGlyphs();
