// Valhalla's matrix service (https://valhalla.github.io/valhalla/api/matrix/api-reference/; decision 1523): POST
// /sources_to_targets {sources, targets, costing: auto}; its answer's `sources_to_targets` rows hold {time (s),
// distance (km)} per target. Valhalla's default service limit for auto is 2,500 location pairs per request
// (max_matrix_location_pairs), so every request asks 50 sources × 50 targets at most.
import { blocks, bounded, EngineError, fetchJson, finiteSeconds, type EngineAdapter } from './engines.ts';

export const VALHALLA_BLOCK = 50;

interface MatrixResponse {
  sources_to_targets?: unknown;
}

export const valhallaMatrix: EngineAdapter = async (points, options) => {
  const n = points.length;
  const seconds = new Float64Array(n * n);
  const meters = new Float64Array(n * n);
  const base = options.url.replace(/\/+$/, '');
  const parts = blocks(n, VALHALLA_BLOCK);
  const location = (i: number) => ({ lat: points[i]!.lat, lon: points[i]!.lng });
  const tasks = parts.flatMap((sources) =>
    parts.flatMap((targets) =>
      options.wanted && !options.wanted(sources, targets)
        ? []
        : [
            async () => {
              const request = { sources: sources.map(location), targets: targets.map(location), costing: 'auto', units: 'kilometers' };
              const { status, body } = await fetchJson(
                `${base}/sources_to_targets`,
                { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) },
                options.timeoutMs,
              );
              const rows = (body as MatrixResponse | null)?.sources_to_targets;
              if (status !== 200 || !Array.isArray(rows) || rows.length !== sources.length) throw new EngineError(`Valhalla answered ${status}`);
              sources.forEach((from, r) => {
                const row: unknown = rows[r];
                if (!Array.isArray(row) || row.length !== targets.length) throw new EngineError('Valhalla answered a matrix of another size');
                targets.forEach((to, c) => {
                  const cell = row[c] as { time?: unknown; distance?: unknown } | null;
                  if (!cell || !finiteSeconds(cell.time) || !finiteSeconds(cell.distance)) throw new EngineError('Valhalla found no route between two points');
                  seconds[from * n + to] = cell.time;
                  meters[from * n + to] = cell.distance * 1000;
                });
              });
            },
          ],
    ),
  );
  await bounded(tasks, options.parallel);
  return { seconds, meters };
};
