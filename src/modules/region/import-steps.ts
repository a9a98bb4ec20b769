// The steps of a region import (decision 1501): each reads the parsed extract and writes its own rows, keyed by the
// new region's id, inside the import's one transaction; `remove` deletes a replaced region's rows in the same one.
import type { Queryable } from '../../db/client.ts';
import { addressesStep } from './addresses-step.ts';
import type { OsmData } from './osm-data.ts';
import { roadsStep } from './roads/step.ts';
import { tilesStep } from './tiles/import-step.ts';

export interface ImportStep {
  /** Names the step in the CLI's output and in errors. */
  name: string;
  /** Writes the step's rows for `regionId`; returns its counts, stored on the region row (GET /api/regions reads them). */
  run(q: Queryable, regionId: string, osm: OsmData, source: { path: string }): Promise<Record<string, number>>;
  /** Deletes the step's rows of a region that is being replaced. */
  remove(q: Queryable, regionId: string): Promise<void>;
}

export const IMPORT_STEPS: readonly ImportStep[] = [addressesStep, roadsStep, tilesStep];
