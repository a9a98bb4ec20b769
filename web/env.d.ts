// Build-time constants (scripts/build-web.mjs `define`).
declare const __MAPLIBRE_WORKER_URL__: string;
declare module '*.svg' {
  const url: string;
  export default url;
}
// MapLibre's CSP build (no blob: worker) has the same API as the main entry.
declare module 'maplibre-gl/dist/maplibre-gl-csp.js' {
  export * from 'maplibre-gl';
}
