// `tourbook region import`: reads an OpenStreetMap extract into the database (contract §14). What it imported goes to
// stdout whatever LOG_LEVEL is (the command's result, like `migrate`'s line); progress and logs go to stderr.
import { ConfigError, loadConfig } from '../config.ts';
import { importRegion, OsmFileError } from '../modules/region/index.ts';
import { createLogger, createRuntime, describeDatabase } from '../runtime.ts';
import { CliError } from './cli-error.ts';

export async function regionImportCommand(values: { name?: string; json?: boolean }, positionals: string[]): Promise<void> {
  const [file, ...extra] = positionals;
  if (!file) throw new ConfigError('region import needs the extract: tourbook region import <file.osm.pbf> [--name NAME]');
  if (extra.length > 0) throw new ConfigError(`region import takes one file, not ${positionals.length}`);
  if (values.name !== undefined && values.name.trim() === '') throw new ConfigError('--name must not be empty');
  const config = loadConfig();
  const log = await createLogger(config, 2);
  const runtime = await createRuntime(config, { migrate: !config.databaseUrl, log, announce: true });
  try {
    const report = await importRegion(runtime.deps, file, values.name !== undefined ? { name: values.name } : {});
    if (values.json) {
      console.log(JSON.stringify({ region_id: report.regionId, name: report.name, replaced_id: report.replacedId, counts: report.counts, seconds: round(report.totalMs / 1000) }));
      return;
    }
    const counts = Object.entries(report.counts).map(([key, n]) => `${n} ${key.replace(/_/g, ' ')}`).join(', ');
    console.log(`Imported region "${report.name}" into ${describeDatabase(config)}${report.replacedId ? ' (replacing the previous import of that name)' : ''}: ${counts}.`);
    const steps = report.steps.map((step) => `${step.name} ${round(step.ms / 1000)} s`).join(', ');
    console.log(`Took ${round(report.totalMs / 1000)} s (reading the file ${round(report.readMs / 1000)} s${steps ? `, ${steps}` : ''}).`);
  } catch (err) {
    if (err instanceof OsmFileError) throw new CliError(`${err.message}; nothing was imported, the regions stay as they were`);
    throw err;
  } finally {
    await runtime.close();
  }
}

const round = (seconds: number) => Math.round(seconds * 10) / 10;
