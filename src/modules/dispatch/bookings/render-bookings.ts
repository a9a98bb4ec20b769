// Rendering bookings for a caller: compact, or with their stops and packages read in one statement.
import type { Deps } from '../../../deps.ts';
import type { Queryable } from '../../../db/client.ts';
import type { Actor } from '../../../http/actor.ts';
import type { PackageHistoryRow } from '../packages/index.ts';
import { toPackageView } from '../packages/index.ts';
import { loadStopContext, type RenderDeps } from '../stops/index.ts';
import { toStopView } from '../stops/index.ts';
import { earningsField } from '../legacy-earnings-field.ts';
import type { BookingTipDistribution, TipDistributionSource } from '../hooks.ts';
import * as repo from './repository.ts';
import { showsTrackingLink, trackingLinksOf, type HeldForLinks, type TrackingLinkView } from './tracking-links.ts';
import { bookingFields } from './views.ts';

/**
 * Bookings with their stops and packages (standard view), or without them (compact). Children the caller already
 * holds (`known`, by booking id) are not read again; the others come from one statement.
 */
export async function renderBookings(
  q: Queryable,
  render: RenderDeps & Pick<Deps, 'config'>,
  actor: Actor,
  rows: repo.BookingRow[],
  view: 'standard' | 'compact' = 'standard',
  known?: Map<string, repo.BookingChildren>,
  tipSource: TipDistributionSource = { fresh: false },
) {
  const tips = rows.length ? await render.hooks.dispatch.tipDistribution(q, actor.tenantId, rows, tipSource) : new Map<string, BookingTipDistribution>();
  const earnings = (money: repo.BookingRow['earnings']) => earningsField(render.clock, actor, money);
  const ids = rows.map((b) => b.id);
  // The recipient's link (decision 1100): not a driver's to see, so the field is absent for drivers. The standard view
  // holds every stop of each booking (and the link row, when the read brought it): they are not read again (decision 1453).
  const linksOf = async (held?: ReadonlyMap<string, HeldForLinks>) => (showsTrackingLink(actor) ? await trackingLinksOf(q, render, actor.tenantId, ids, held) : null);
  const tracking = (links: Map<string, TrackingLinkView> | null, id: string): { tracking?: TrackingLinkView | null } => (links ? { tracking: links.get(id) ?? null } : {});
  if (view === 'compact' || !rows.length) {
    const links = await linksOf();
    return rows.map((row) => ({ ...bookingFields(row, tips, earnings), ...tracking(links, row.id) }));
  }
  const children = known ?? (await repo.findChildrenOfBookings(q, actor.tenantId, ids));
  const ofBooking = (id: string): repo.BookingChildren => children.get(id) ?? { stops: [], packages: [], history: [] };
  const links = await linksOf(children);
  const stops = rows.flatMap((row) => ofBooking(row.id).stops);
  const packages = rows.flatMap((row) => ofBooking(row.id).packages);
  const context = await loadStopContext(q, render, actor.tenantId, stops, { bookingStops: stops, packages });
  const historyByPackage = new Map<string, PackageHistoryRow[]>();
  for (const h of rows.flatMap((row) => ofBooking(row.id).history)) historyByPackage.set(h.packageId, [...(historyByPackage.get(h.packageId) ?? []), h]);
  return rows.map((row) => ({
    ...bookingFields(row, tips, earnings),
    ...tracking(links, row.id),
    stops: ofBooking(row.id).stops.map((s) => toStopView(actor, s, context)),
    packages: ofBooking(row.id).packages.map((p) => toPackageView(p, historyByPackage.get(p.id) ?? [])),
  }));
}
