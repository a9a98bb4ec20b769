// OSRM's table service (http://project-osrm.org/docs/v5.24.0/api/#table-service; decision 1523): GET
// /table/v1/driving/{lng,lat;…}?sources=…&destinations=…&annotations=duration,distance. OSRM refuses a table whose
// sources × destinations exceeds max-table-size² (100² by default), so every request asks 100 sources × 100
// destinations at most, its coordinates being those sources followed by those destinations.
import { blocks, bounded, EngineError, fetchJson, finiteSeconds, type EngineAdapter } from './engines.ts';

/** OSRM's default `--max-table-size`. */
export const OSRM_TABLE_SIZE = 100;

interface TableResponse {
  code?: unknown;
  durations?: unknown;
  distances?: unknown;
}

export const osrmTable: EngineAdapter = async (points, options) => {
  const n = points.length;
  const seconds = new Float64Array(n * n);
  const meters = new Float64Array(n * n);
  const base = options.url.replace(/\/+$/, '');
  const parts = blocks(n, OSRM_TABLE_SIZE);
  const tasks = parts.flatMap((sources) =>
    parts.flatMap((targets) =>
      options.wanted && !options.wanted(sources, targets)
        ? []
        : [
            async () => {
              const coordinates = [...sources, ...targets].map((i) => `${points[i]!.lng.toFixed(6)},${points[i]!.lat.toFixed(6)}`).join(';');
              const query = `sources=${sources.map((_, k) => k).join(';')}&destinations=${targets.map((_, k) => sources.length + k).join(';')}&annotations=duration,distance`;
              const { status, body } = await fetchJson(`${base}/table/v1/driving/${coordinates}?${query}`, {}, options.timeoutMs);
              const table = body as TableResponse | null;
              if (status !== 200 || table?.code !== 'Ok') throw new EngineError(`OSRM answered ${status} ${String(table?.code ?? '')}`);
              const durations = table.durations;
              const distances = table.distances;
              if (!Array.isArray(durations) || !Array.isArray(distances) || durations.length !== sources.length || distances.length !== sources.length) {
                throw new EngineError('OSRM answered a table of another size');
              }
              sources.forEach((from, r) => {
                const durationRow: unknown = durations[r];
                const distanceRow: unknown = distances[r];
                if (!Array.isArray(durationRow) || !Array.isArray(distanceRow) || durationRow.length !== targets.length || distanceRow.length !== targets.length) {
                  throw new EngineError('OSRM answered a table of another size');
                }
                targets.forEach((to, c) => {
                  // null: OSRM found no route; one matrix has one source, so the whole answer falls back.
                  if (!finiteSeconds(durationRow[c]) || !finiteSeconds(distanceRow[c])) throw new EngineError('OSRM found no route between two points');
                  seconds[from * n + to] = durationRow[c];
                  meters[from * n + to] = distanceRow[c];
                });
              });
            },
          ],
    ),
  );
  await bounded(tasks, options.parallel);
  return { seconds, meters };
};
