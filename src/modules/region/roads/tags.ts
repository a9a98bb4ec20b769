// What OpenStreetMap's tags say to a car (docs/decisions/1520-road-graph.md): which ways it may drive, in which
// direction, and how fast. Pure functions of one way's tags.
import type { OsmTags } from '../osm-data.ts';

/** km/h by road class where the way carries no usable `maxspeed` (urban values: the regions we serve are towns). */
export const CLASS_SPEED_KMH: Readonly<Record<string, number>> = {
  motorway: 100,
  motorway_link: 60,
  trunk: 80,
  trunk_link: 50,
  primary: 50,
  primary_link: 40,
  secondary: 45,
  secondary_link: 35,
  tertiary: 40,
  tertiary_link: 30,
  unclassified: 30,
  residential: 30,
  road: 30,
  living_street: 10,
  service: 15,
};

/** The national implicit limits of `maxspeed=XX:zone` (the values OSM's wiki lists for the common zones). */
const ZONE_SPEED_KMH: Readonly<Record<string, number>> = {
  urban: 50,
  rural: 80,
  motorway: 130,
  trunk: 110,
  living_street: 20,
  zone30: 30,
  zone20: 20,
  walk: 7,
};

const NO = new Set(['no', 'private', 'agricultural', 'forestry', 'delivery', 'customers', 'emergency', 'military', 'discouraged_never']);
const YES = new Set(['yes', 'designated', 'permissive', 'destination']);

/** The way's class if a car may use it, else null. */
export function carClass(tags: OsmTags): string | null {
  const highway = tags['highway'];
  if (!highway || !(highway in CLASS_SPEED_KMH)) return null;
  if (tags['area'] === 'yes') return null;
  // The most specific access tag decides (OSM's access hierarchy: motorcar < motor_vehicle < vehicle < access).
  for (const key of ['motorcar', 'motor_vehicle', 'vehicle', 'access']) {
    const value = tags[key];
    if (value === undefined) continue;
    if (YES.has(value)) return highway;
    if (NO.has(value)) return null;
  }
  return highway;
}

/** 1: along the way only, -1: against it only, 0: both directions. */
export function onewayOf(tags: OsmTags): 1 | -1 | 0 {
  const value = tags['oneway:motorcar'] ?? tags['oneway:motor_vehicle'] ?? tags['oneway'];
  if (value === 'yes' || value === '1' || value === 'true') return 1;
  if (value === '-1' || value === 'reverse') return -1;
  if (value === 'no' || value === '0' || value === 'false') return 0;
  const junction = tags['junction'];
  if (junction === 'roundabout' || junction === 'circular') return 1;
  const highway = tags['highway'];
  if (highway === 'motorway' || highway === 'motorway_link') return 1;
  return 0;
}

/** A `maxspeed` value in km/h, or null when it does not say one (`none`, `signals`, unknown zones). */
export function parseMaxspeed(value: string | undefined): number | null {
  if (!value) return null;
  const text = value.trim().toLowerCase();
  const number = /^(\d+(?:\.\d+)?)\s*(mph|km\/h|kmh|kph)?$/.exec(text);
  if (number) {
    const speed = Number(number[1]) * (number[2] === 'mph' ? 1.609344 : 1);
    return speed > 0 ? speed : null;
  }
  if (text === 'walk') return ZONE_SPEED_KMH['walk']!;
  const zone = /^[a-z]{2}:(.+)$/.exec(text);
  if (zone) return ZONE_SPEED_KMH[zone[1]!.replace(/[^a-z0-9_]/g, '')] ?? null;
  return null;
}

/** The speed a car drives a way at, km/h: its `maxspeed` (5–140) or its class's. */
export function speedKmh(tags: OsmTags, highway: string): number {
  const classSpeed = CLASS_SPEED_KMH[highway] ?? 30;
  const posted = parseMaxspeed(tags['maxspeed']);
  return posted === null ? classSpeed : Math.max(5, Math.min(posted, 140));
}
