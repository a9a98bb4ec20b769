// What other modules may use of regions (contract §14): importing an OpenStreetMap extract, and which imported region
// serves a point. The import's steps (addresses here; roads/ and tiles/ add theirs) are in import-steps.ts.
export { importRegion, importParsed, deleteRegion, defaultRegionName, type ImportReport } from './import.ts';
export { listRegions, regionContaining, regionForPoints, type Region } from './repository.ts';
export { readOsmFile, OsmFileError } from './osm-reader.ts';
export type { ImportStep } from './import-steps.ts';
export type { OsmData, OsmNode, OsmWay, OsmRelation, OsmTags } from './osm-data.ts';
export { bulkInsert, type BulkColumn } from './bulk-insert.ts';
export { regionRoutes } from './routes.ts';
/**
 * Geocoding (contract §14). For engineer "intake-api":
 * `geocodeAddress(q, tenantId, { line?: string; parts?: AddressParts }, { customerId?: string | null; serviceAreaId?: string })`
 * → `{ best: GeocodeResult | null, closest: GeocodeResult | null }`: `best` is never fuzzy and never coarser than a
 * street; `closest` is the first candidate of any kind (the 422 address_not_found names it). `customerId` set: only
 * that customer's places are searched (a customer's stop); null/absent: all the tenant's places.
 */
export { geocode, geocodeAddress, type GeocodeResult, type GeocodeAnswer, type Precision } from './geocode/geocoder.ts';
export { travelRoutes } from './travel/routes.ts';
export { travelMatrix, clearTravelCache, type TravelMatrix, type TravelSource, type TravelDeps } from './travel/matrix.ts';
export { travelRoute, type TravelRoute } from './travel/route.ts';
