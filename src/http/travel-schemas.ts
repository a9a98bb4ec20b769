// The wire shapes of travel times that several modules answer (contract §15): where times come from, and a route along
// the roads — defined once here (decision 0215) for the routing matrix, tours, plans and the tracking read.
import { Type } from '@sinclair/typebox';
import { component, StringEnum, withExample } from './openapi-components.ts';

export const TravelSource = component(
  'TravelSource',
  StringEnum(['road_network', 'osrm', 'valhalla', 'straight_line'], {
    description: 'Where the travel times come from: the configured engine (osrm, valhalla), the imported region’s roads (road_network), or straight lines × 1.3 (straight_line).',
  }),
);

export const TravelRoute = component(
  'TravelRoute',
  withExample(
    Type.Object({
      geometry: Type.Object(
        {
          type: Type.Literal('LineString'),
          coordinates: Type.Array(Type.Array(Type.Number(), { minItems: 2, maxItems: 2 }), {
            description: '[lng, lat] pairs along the roads through the remaining stops in tour order (RFC 7946); empty when no stop remains.',
          }),
        },
        { description: 'A GeoJSON LineString.' },
      ),
      distance_m: Type.Number({ minimum: 0 }),
      duration_s: Type.Number({ minimum: 0, description: 'Driving time only: no waiting for time windows, no service time.' }),
      travel_source: TravelSource,
    }),
    {
      geometry: { type: 'LineString', coordinates: [[7.42752, 43.739611], [7.426881, 43.738902], [7.424112, 43.736527], [7.419733, 43.731101]] },
      distance_m: 1689.2,
      duration_s: 212.4,
      travel_source: 'road_network',
    },
  ),
);

export interface TravelRouteView {
  geometry: { type: 'LineString'; coordinates: number[][] };
  distance_m: number;
  duration_s: number;
  travel_source: 'road_network' | 'osrm' | 'valhalla' | 'straight_line';
}

/** A tenth of a second or meter is finer than any source measures; 6 decimals of a degree are ≈ 0.1 m. */
const round1 = (value: number): number => Math.round(value * 10) / 10;
const round6 = (value: number): number => Math.round(value * 1e6) / 1e6;

/** The wire view of a route (decision 1700): one point left is a line that starts and ends there. */
export function travelRouteView(route: { coordinates: readonly (readonly [number, number])[]; meters: number; seconds: number; source: TravelRouteView['travel_source'] }): TravelRouteView {
  const coordinates = route.coordinates.map(([lng, lat]) => [round6(lng), round6(lat)]);
  return {
    geometry: { type: 'LineString', coordinates: coordinates.length === 1 ? [coordinates[0]!, coordinates[0]!] : coordinates },
    distance_m: round1(route.meters),
    duration_s: round1(route.seconds),
    travel_source: route.source,
  };
}
