// The parts of an OpenStreetMap extract the region import hands to each of its steps (addresses, roads, tiles):
// parsed once, in memory, as plain shapes (docs/decisions, region import).

export type OsmTags = Readonly<Record<string, string>>;

export interface OsmNode {
  id: number;
  lat: number;
  lng: number;
  /** Absent for the many untagged nodes that only shape ways. */
  tags?: OsmTags;
}

export interface OsmWay {
  id: number;
  /** Node ids in order; every id is a key of `OsmData.nodes` unless the extract cut the way at its border. */
  refs: readonly number[];
  tags: OsmTags;
}

export interface OsmRelationMember {
  type: 'node' | 'way' | 'relation';
  ref: number;
  role: string;
}

export interface OsmRelation {
  id: number;
  members: readonly OsmRelationMember[];
  tags: OsmTags;
}

export interface OsmData {
  nodes: ReadonlyMap<number, OsmNode>;
  ways: readonly OsmWay[];
  relations: readonly OsmRelation[];
  /** The extract's bounding box (its header's, else the nodes'). */
  bbox: { minLat: number; minLng: number; maxLat: number; maxLng: number };
}
