// Reads an OpenStreetMap PBF extract into the in-memory shape every import step shares (osm-data.ts), with npm's
// osm-pbf-parser (decision 1500: an existing parser, not our own decoder). A file that is empty, cut short or not
// a PBF extract fails with an OsmFileError that says which, before anything is written.
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { OsmData, OsmNode, OsmRelation, OsmRelationMember, OsmWay } from './osm-data.ts';

/** Why a file cannot be read as an extract; the CLI prints the message as it is. */
export class OsmFileError extends Error {
  constructor(
    readonly path: string,
    readonly reason: 'missing' | 'empty' | 'truncated' | 'foreign',
    detail: string,
  ) {
    super(`${path}: ${detail}`);
    this.name = 'OsmFileError';
  }
}

/** The parts of osm-pbf-parser's stream stages used here (the package ships no types). */
interface StreamStage {
  write(chunk: unknown): boolean;
  end(): void;
  on(event: 'data', listener: (chunk: never) => void): void;
  on(event: 'error', listener: (err: unknown) => void): void;
  once(event: 'finish' | 'end', listener: () => void): void;
}
interface BlobParserStage extends StreamStage {
  /** Bytes of an unfinished blob the parser still waits for the rest of (a truncated file leaves them behind). */
  _prev: Buffer | null;
  /** 0 when the parser stands between two blobs. */
  _mode: number;
}
interface PrimitivesStage extends StreamStage {
  _osmheader?: { bbox?: { left: number; right: number; top: number; bottom: number } | null } | null;
}
interface ParserModule {
  BlobParser: new () => BlobParserStage;
  BlobDecompressor: new () => StreamStage;
  PrimitivesParser: new () => PrimitivesStage;
}

interface ParsedItem {
  type: 'node' | 'way' | 'relation';
  id: number;
  lat?: number;
  lon?: number;
  tags: Record<string, string>;
  refs?: number[];
  members?: { type: 'node' | 'way' | 'relation'; id: number; role: string }[];
}

const parser = createRequire(import.meta.url)('osm-pbf-parser') as ParserModule;

/** A PBF file starts with a blob header of at most 64 KiB whose type is "OSMHeader" (the format's own limits). */
const MAX_BLOB_HEADER = 64 * 1024;

/**
 * Reads the whole extract. The stages are written to by hand, each write guarded, rather than piped: the parser
 * throws from inside its stream callbacks on bad input, which a pipe would turn into an uncaught exception.
 */
export async function readOsmFile(path: string): Promise<OsmData> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(path);
  } catch (err) {
    throw new OsmFileError(path, 'missing', `cannot read the file (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  if (bytes.length === 0) throw new OsmFileError(path, 'empty', 'the file is empty, not an OpenStreetMap extract');
  const headerSize = bytes.length >= 4 ? bytes.readUInt32BE(0) : 0;
  if (headerSize === 0 || headerSize > MAX_BLOB_HEADER || !bytes.subarray(4, 4 + Math.min(headerSize, 32)).includes('OSMHeader')) {
    throw new OsmFileError(path, 'foreign', 'not an OpenStreetMap PBF extract (.osm.pbf); other formats can be converted with `osmium cat FILE -o FILE.osm.pbf`');
  }

  const blobs: { type: string; zlib_data: Buffer }[] = [];
  const blobParser = new parser.BlobParser();
  blobParser.on('data', (blob: { type: string; zlib_data: Buffer }) => blobs.push(blob));
  try {
    await new Promise<void>((resolve, reject) => {
      blobParser.on('error', reject);
      blobParser.once('finish', resolve);
      blobParser.write(bytes);
      blobParser.end();
    });
  } catch (err) {
    throw new OsmFileError(path, 'foreign', `not a readable OpenStreetMap PBF extract (${describe(err)})`);
  }
  // readable-stream hands the last blobs over after 'finish': let them arrive.
  await new Promise((resolve) => setImmediate(resolve));
  if ((blobParser._prev !== null && blobParser._prev.length > 0) || blobParser._mode !== 0) {
    throw new OsmFileError(path, 'truncated', 'the file is cut short (its last block is incomplete); download or copy it again');
  }
  if (blobs[0]?.type !== 'OSMHeader') throw new OsmFileError(path, 'foreign', 'the file has no OpenStreetMap header block');

  const nodes = new Map<number, OsmNode>();
  const ways: OsmWay[] = [];
  const relations: OsmRelation[] = [];
  const decompressor = new parser.BlobDecompressor();
  const primitives = new parser.PrimitivesParser();
  let failure: unknown = null;
  primitives.on('data', (items: ParsedItem[]) => {
    for (const item of items) collect(item, nodes, ways, relations);
  });
  decompressor.on('data', (chunk: never) => {
    try {
      primitives.write(chunk);
    } catch (err) {
      failure ??= err;
    }
  });
  try {
    await new Promise<void>((resolve, reject) => {
      decompressor.on('error', reject);
      primitives.on('error', reject);
      decompressor.once('end', resolve);
      for (const blob of blobs) decompressor.write(blob);
      decompressor.end();
    });
  } catch (err) {
    failure ??= err;
  }
  if (failure !== null) throw new OsmFileError(path, 'foreign', `a block of the file cannot be decoded (${describe(failure)})`);
  if (nodes.size === 0) throw new OsmFileError(path, 'empty', 'the extract holds no nodes');

  const box = primitives._osmheader?.bbox;
  return { nodes, ways, relations, bbox: box ? fromHeader(box) : boundsOf(nodes) };
}

function collect(item: ParsedItem, nodes: Map<number, OsmNode>, ways: OsmWay[], relations: OsmRelation[]): void {
  const tags = Object.keys(item.tags).length > 0 ? item.tags : undefined;
  if (item.type === 'node') {
    const node: OsmNode = { id: item.id, lat: item.lat!, lng: item.lon! };
    if (tags) node.tags = tags;
    nodes.set(item.id, node);
  } else if (item.type === 'way') {
    ways.push({ id: item.id, refs: item.refs ?? [], tags: item.tags });
  } else {
    const members: OsmRelationMember[] = (item.members ?? []).map((m) => ({ type: m.type, ref: m.id, role: m.role }));
    relations.push({ id: item.id, members, tags: item.tags });
  }
}

/** The header's box is in nanodegrees. */
function fromHeader(box: { left: number; right: number; top: number; bottom: number }): OsmData['bbox'] {
  return { minLat: Number(box.bottom) * 1e-9, minLng: Number(box.left) * 1e-9, maxLat: Number(box.top) * 1e-9, maxLng: Number(box.right) * 1e-9 };
}

function boundsOf(nodes: ReadonlyMap<number, OsmNode>): OsmData['bbox'] {
  let minLat = Infinity;
  let minLng = Infinity;
  let maxLat = -Infinity;
  let maxLng = -Infinity;
  for (const { lat, lng } of nodes.values()) {
    if (lat < minLat) minLat = lat;
    if (lat > maxLat) maxLat = lat;
    if (lng < minLng) minLng = lng;
    if (lng > maxLng) maxLng = lng;
  }
  return { minLat, minLng, maxLat, maxLng };
}

/** The parser throws strings as well as errors. */
const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));
