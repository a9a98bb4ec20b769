// Rendering bookings for a caller: compact, or with their stops and packages read in one statement.
import type { Queryable } from '../../../db/client.ts';
import type { Actor } from '../../../http/actor.ts';
import type { PackageHistoryRow } from '../packages/repository.ts';
import { toPackageView } from '../packages/views.ts';
import { loadStopContext, type RenderDeps } from '../stops/render-stops.ts';
import { toStopView } from '../stops/views.ts';
import { earningsField } from '../earnings.ts';
import type { BookingTipDistribution, TipDistributionSource } from '../hooks.ts';
import * as repo from './repository.ts';
import { bookingFields } from './views.ts';

/**
 * Bookings with their stops and packages (standard view), or without them (compact). Children the caller already
 * holds (`known`, by booking id) are not read again; the others come from one statement.
 */
export async function renderBookings(
  q: Queryable,
  render: RenderDeps,
  actor: Actor,
  rows: repo.BookingRow[],
  view: 'standard' | 'compact' = 'standard',
  known?: Map<string, repo.BookingChildren>,
  tipSource: TipDistributionSource = { fresh: false },
) {
  const tips = rows.length ? await render.hooks.dispatch.tipDistribution(q, actor.tenantId, rows, tipSource) : new Map<string, BookingTipDistribution>();
  const earnings = (money: repo.BookingRow['earnings']) => earningsField(render.clock, actor, money);
  if (view === 'compact' || !rows.length) return rows.map((row) => bookingFields(row, tips, earnings));
  const children = known ?? (await repo.findChildrenOfBookings(q, actor.tenantId, rows.map((b) => b.id)));
  const ofBooking = (id: string): repo.BookingChildren => children.get(id) ?? { stops: [], packages: [], history: [] };
  const stops = rows.flatMap((row) => ofBooking(row.id).stops);
  const packages = rows.flatMap((row) => ofBooking(row.id).packages);
  const context = await loadStopContext(q, render, actor.tenantId, stops, { bookingStops: stops, packages });
  const historyByPackage = new Map<string, PackageHistoryRow[]>();
  for (const h of rows.flatMap((row) => ofBooking(row.id).history)) historyByPackage.set(h.packageId, [...(historyByPackage.get(h.packageId) ?? []), h]);
  return rows.map((row) => ({
    ...bookingFields(row, tips, earnings),
    stops: ofBooking(row.id).stops.map((s) => toStopView(actor, s, context)),
    packages: ofBooking(row.id).packages.map((p) => toPackageView(p, historyByPackage.get(p.id) ?? [])),
  }));
}
