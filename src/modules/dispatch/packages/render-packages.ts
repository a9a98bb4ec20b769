// Rendering packages with their history, read in one statement.
import type { Queryable } from '../../../db/client.ts';
import * as packagesRepo from './repository.ts';
import { toPackageView } from './views.ts';

export async function renderPackages(q: Queryable, tenantId: string, rows: packagesRepo.PackageRow[]) {
  const history = await packagesRepo.findPackageHistory(q, tenantId, rows.map((p) => p.id));
  return rows.map((p) => toPackageView(p, history.filter((h) => h.packageId === p.id)));
}
