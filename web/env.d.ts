// Build-time constants (scripts/build-web.mjs `define`).
declare const __MAPLIBRE_WORKER_URL__: string;
declare module '*.svg' {
  const url: string;
  export default url;
}
