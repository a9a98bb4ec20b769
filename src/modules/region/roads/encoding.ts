// The road graph's binary form, stored in region_road_graphs.data (docs/decisions/1520-road-graph.md): a header
// ("TBRG", version, the array lengths) and the typed arrays one after another, little-endian, each 8-byte aligned, so
// that loading is a copy per array and no parsing.
import type { RoadGraph } from './graph.ts';

const MAGIC = 0x47524254; // "TBRG" little-endian
const VERSION = 1;

type ArrayName = keyof RoadGraph;
/** The order of the arrays in the encoding (never reorder: bump VERSION instead). */
const LAYOUT: readonly [ArrayName, Float64ArrayConstructor | Float32ArrayConstructor | Uint32ArrayConstructor | Int32ArrayConstructor][] = [
  ['nodeLat', Float64Array],
  ['nodeLng', Float64Array],
  ['firstEdge', Uint32Array],
  ['edgeFrom', Uint32Array],
  ['edgeTo', Uint32Array],
  ['edgeSeconds', Float32Array],
  ['edgeMeters', Float32Array],
  ['edgeTwin', Int32Array],
  ['shapeStart', Uint32Array],
  ['shapeLat', Float64Array],
  ['shapeLng', Float64Array],
  ['bannedStart', Uint32Array],
  ['bannedTo', Uint32Array],
];
const HEADER_BYTES = 8 + LAYOUT.length * 4;
const align = (n: number): number => (n + 7) & ~7;

export function encodeRoadGraph(graph: RoadGraph): Uint8Array {
  let size = align(HEADER_BYTES);
  for (const [name] of LAYOUT) size += align(graph[name].byteLength);
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, VERSION, true);
  let offset = align(HEADER_BYTES);
  LAYOUT.forEach(([name], i) => {
    const array = graph[name];
    view.setUint32(8 + i * 4, array.length, true);
    // Typed arrays are in the platform's byte order, little-endian on every platform Node supports.
    bytes.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), offset);
    offset += align(array.byteLength);
  });
  return bytes;
}

export class RoadGraphEncodingError extends Error {}

export function decodeRoadGraph(data: Uint8Array): RoadGraph {
  if (data.byteLength < HEADER_BYTES) throw new RoadGraphEncodingError('road graph too short');
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== VERSION) throw new RoadGraphEncodingError('not a road graph of this version');
  let offset = align(HEADER_BYTES);
  const graph: Partial<Record<ArrayName, unknown>> = {};
  LAYOUT.forEach(([name, Type], i) => {
    const length = view.getUint32(8 + i * 4, true);
    const bytes = length * Type.BYTES_PER_ELEMENT;
    if (offset + bytes > data.byteLength) throw new RoadGraphEncodingError('road graph truncated');
    // Copy into a fresh, aligned buffer (a database driver's Buffer may start at any offset).
    const array = new Type(length);
    new Uint8Array(array.buffer).set(data.subarray(offset, offset + bytes));
    graph[name] = array;
    offset += align(bytes);
  });
  return graph as RoadGraph;
}
