// What the map drew, on its container's data attributes after each render settles (MapLibre's `idle`): the browser
// tests and the bench read them (streets, street names, each tour's colour) without reaching into MapLibre.
import type { Map as MapLibreMap } from 'maplibre-gl';

const STREET_LAYERS = ['road-minor', 'road-medium', 'road-major'];

export function probeRendered(map: MapLibreMap): void {
  const container = map.getContainer();
  map.on('idle', () => {
    const present = (ids: string[]) => ids.filter((id) => map.getLayer(id));
    const streets = present(STREET_LAYERS);
    const names = present(['road-name']);
    container.dataset.streets = String(streets.length ? map.queryRenderedFeatures({ layers: streets }).length : 0);
    container.dataset.streetNames = String(names.length ? map.queryRenderedFeatures({ layers: names }).length : 0);
    const colors = new Set(map.queryRenderedFeatures({ layers: present(['tour-lines']) }).map((feature) => String(feature.properties?.color)));
    container.dataset.tourColors = [...colors].sort().join(' ');
    // The stops and the driver drawn (the driver app's next stop, the tracking page's stop and driver).
    container.dataset.stops = String(map.queryRenderedFeatures({ layers: present(['stops']) }).length);
    container.dataset.driver = String(map.queryRenderedFeatures({ layers: present(['driver']) }).length);
    container.dataset.idleAt = String(Date.now());
  });
}
