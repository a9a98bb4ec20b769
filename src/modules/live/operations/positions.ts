// GET /api/hailing/tours/{id}/positions: a tour's position history for admins and the executing organization's managers.
import type { Deps } from '../../../deps.ts';
import { readDb } from '../../../db/replicas.ts';
import type { Actor } from '../../../http/actor.ts';
import { badParameter } from '../../../http/errors.ts';
import { decodeCursor, toPage } from '../../../http/pagination.ts';
import { isUuid } from '../../../shared/ids.ts';
import { requireTourPositions } from '../access.ts';
import * as repo from '../repository.ts';
import type { PositionListQueryT } from '../schemas.ts';
import { renderPosition } from '../views.ts';

export async function listTourPositions(deps: Deps, actor: Actor, tourId: string, query: PositionListQueryT) {
  // A driver's movements are its own organization's business (docs/api-guide.md "Who sees what"): other managers who see the tour do not.
  const tour = await requireTourPositions(deps.db, actor, tourId);
  const limit = query.limit ?? 25;
  const [beforeId] = decodeCursor(query.cursor) ?? [null];
  if (beforeId !== null && (typeof beforeId !== 'string' || !isUuid(beforeId))) {
    throw badParameter('parameter_invalid', 'cursor', 'The cursor is not one this API issued.');
  }
  // The history is a heavy read: a replica may serve it (decision 1401); the visibility check above reads the primary.
  const rows = await repo.listPositions(readDb(deps), actor.tenantId, tour.id, beforeId, limit);
  const page = toPage(rows, limit, (row) => [row.id]);
  return { positions: page.items.map(renderPosition), meta: page.meta };
}
