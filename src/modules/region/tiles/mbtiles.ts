// Making and reading MBTiles files (decision 1540): tilemaker (Debian's package) turns the region's extract into one
// SQLite file with our own schema (tilemaker-config.json, tilemaker-process.lua); sql.js (SQLite in WebAssembly) reads
// it back in process, so the server needs no native SQLite.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import initSqlJs from 'sql.js';

export interface Tile {
  z: number;
  x: number;
  /** XYZ row: MBTiles stores TMS rows (0 at the south), flipped here. */
  y: number;
  data: Uint8Array;
}

const require = createRequire(import.meta.url);
/** The tilemaker config and Lua process file, found upwards from here (src/… when run from source, dist/chunks/ when built). */
export const SCHEMA_DIR = findUp(path.dirname(fileURLToPath(import.meta.url)), path.join('src', 'modules', 'region', 'tiles'), 'tilemaker-config.json');

export function findUp(from: string, relative: string, marker: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, marker))) return dir;
    const candidate = path.join(dir, relative);
    if (fs.existsSync(path.join(candidate, marker))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`No ${relative}/${marker} above ${from}`);
  }
}

/** Whether `tilemaker` runs here (it is on PATH). */
export async function hasTilemaker(): Promise<boolean> {
  try {
    await promisify(execFile)('tilemaker', ['--help'], { timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/** Runs tilemaker over the extract into `output` (an .mbtiles path); rejects with its last words when it fails. */
export async function runTilemaker(input: string, output: string): Promise<void> {
  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-tilemaker-'));
  try {
    await promisify(execFile)(
      'tilemaker',
      ['--input', path.resolve(input), '--output', path.resolve(output), '--config', path.join(SCHEMA_DIR, 'tilemaker-config.json'), '--process', path.join(SCHEMA_DIR, 'tilemaker-process.lua')],
      // tilemaker runs in a temporary directory of ours (it writes its progress there): the paths given are made absolute,
      // or `region import regions/x.osm.pbf` would look for the file inside that directory.
      { cwd: store, timeout: 30 * 60_000, maxBuffer: 64 * 1024 * 1024 },
    );
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim().split('\n').slice(-3).join(' ');
    throw new Error(`tilemaker failed: ${stderr || (error as Error).message}`, { cause: error });
  } finally {
    fs.rmSync(store, { recursive: true, force: true });
  }
}

/** Every tile of an MBTiles file, in XYZ rows. A file that is not SQLite or has no `tiles` table throws. */
export async function readMbtiles(file: string): Promise<Tile[]> {
  const SQL = await initSqlJs({ locateFile: () => require.resolve('sql.js/dist/sql-wasm.wasm') });
  const db = new SQL.Database(fs.readFileSync(file));
  try {
    const tiles: Tile[] = [];
    const statement = db.prepare('SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles');
    while (statement.step()) {
      const [z, x, tmsY, data] = statement.get() as [number, number, number, Uint8Array];
      tiles.push({ z, x, y: (1 << z) - 1 - tmsY, data });
    }
    statement.free();
    return tiles;
  } finally {
    db.close();
  }
}
