// Plan: choose waiting bookings and drivers, run the planner (a proposal: nothing is written), see the proposed tours
// on the map and as a list, leave tours or bookings out, plan again, and apply the tours kept (decision 1040).
import { Suspense, useEffect, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { byId, useDrivers, useServiceAreas, type User } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useFormat, useT } from '../../../i18n/index.tsx';
import { boundsOf, MapCanvas, setLayerData, TOUR_PALETTE, tourColor, type Feature, type MapLibreMap } from '../../../map/index.ts';
import { Banner, Button, ErrorBanner, Loading, PageHead, useAreaZones } from '../../../ui/index.ts';
import { messages } from './messages.ts';
import { MAX_BOOKINGS, useApplyPlan, usePlan, useWaitingBookings, type Applied, type Booking, type Objective, type Plan, type PlanJob, type Stop } from './queries.ts';

interface Proposal {
  /** The plan's id: apply names it (decision 1645). */
  id: string;
  plan: Plan;
  bookingIds: string[];
  driverIds: string[];
  included: boolean[];
  drivers: (string | null)[];
}

const sameSet = (a: string[], b: Set<string>) => a.length === b.size && a.every((id) => b.has(id));
const bookingName = (b: Booking) => b.external_id ?? b.id.slice(-6);
const minutes = (seconds: number) => Math.max(1, Math.round(seconds / 60));

function proposalFeatures(proposal: Proposal, stops: Map<string, Stop>): { lines: Feature[]; points: Feature[] } {
  const lines: Feature[] = [];
  const points: Feature[] = [];
  proposal.plan.tours.forEach((tour, k) => {
    const located = tour.stop_ids.map((id) => stops.get(id)).filter((s): s is Stop => !!s);
    // Along the roads when the plan carries the tour's route (contract §15), else stop to stop.
    const route = tour.route.geometry;
    const coordinates = route.coordinates.length > 1 ? route.coordinates : located.map((s) => [s.location.lng, s.location.lat]);
    const selected = proposal.included[k] ?? true;
    // Tour n keeps colour n and its number on its stops, as in the list beside the map (decision 1543).
    const look = { color: tourColor(k), label: k + 1 };
    if (coordinates.length > 1) lines.push({ type: 'Feature', geometry: { type: 'LineString', coordinates }, properties: { tour_id: `plan-${k + 1}`, selected, ...look } });
    for (const s of located) points.push({ type: 'Feature', geometry: { type: 'Point', coordinates: [s.location.lng, s.location.lat] }, properties: { tour_id: `plan-${k + 1}`, stop_id: s.id, status: 'scheduled', ...look } });
  });
  return { lines, points };
}

export function PlanPage({ user }: { user: User }) {
  const t = useT(messages);
  const tc = useT(common);
  const format = useFormat();
  const waiting = useWaitingBookings();
  const drivers = useDrivers();
  const areas = byId(useServiceAreas().data);
  const zones = useAreaZones();
  const plan = usePlan();
  const apply = useApplyPlan();
  const [chosen, setChosen] = useState<Set<string> | null>(null); // booking ids; null: not chosen yet
  const [chosenDrivers, setChosenDrivers] = useState<Set<string>>(() => new Set());
  const [proposal, setProposal] = useState<Proposal | null>(null);
  const [objective, setObjective] = useState<Objective>('balanced');
  const [job, setJob] = useState<PlanJob | null>(null);
  const [map, setMap] = useState<MapLibreMap | null>(null);
  void user;

  const bookings = useMemo(() => waiting.data?.bookings ?? [], [waiting.data]);
  const bookingById = useMemo(() => byId(bookings), [bookings]);
  const stopById = useMemo(() => new Map(bookings.flatMap((b) => (b.stops ?? []).map((s) => [s.id, s] as const))), [bookings]);
  const driverList = drivers.data ?? [];

  // Until the dispatcher chooses, every waiting booking of the newest one's service is chosen: the planner plans one
  // service at a time (merge's rules, 422 mixed_services).
  const firstChoice = useMemo(() => new Set(bookings.filter((b) => b.service_id === bookings[0]?.service_id).map((b) => b.id)), [bookings]);
  const selection = chosen ?? firstChoice;

  const toggle = <T,>(set: Set<T>, value: T, on: boolean): Set<T> => {
    const next = new Set(set);
    if (on) next.add(value);
    else next.delete(value);
    return next;
  };

  const run = () => {
    const bookingIds = bookings.filter((b) => selection.has(b.id)).map((b) => b.id);
    const driverIds = driverList.filter((d) => chosenDrivers.has(d.id)).map((d) => d.id);
    apply.reset();
    setJob(null);
    plan.mutate(
      { bookingIds, driverIds, objective, onProgress: setJob },
      {
        // With drivers each proposed tour names its driver (from the shift it was planned for).
        onSuccess: ({ id, plan: result }) => setProposal({ id, plan: result, bookingIds, driverIds, included: result.tours.map(() => true), drivers: result.tours.map((tour) => tour.driver_id ?? null) }),
        onSettled: () => setJob(null),
      },
    );
  };

  const kept = proposal ? proposal.plan.tours.map((tour, index) => ({ tour, index })).filter(({ index }) => proposal.included[index]) : [];
  const applyKept = () => {
    if (!proposal) return;
    apply.mutate(
      {
        planId: proposal.id,
        // A driver is named only where the dispatcher chose another than the plan's; a running tour keeps its own.
        tours: kept.map(({ tour, index }) => {
          const driver = proposal.drivers[index] ?? null;
          return tour.running || driver === (tour.driver_id ?? null) ? { index } : { index, driverId: driver };
        }),
      },
      { onSuccess: () => setProposal(null) },
    );
  };
  const outdated = proposal !== null && (!sameSet(proposal.bookingIds, selection) || !sameSet(proposal.driverIds, chosenDrivers));

  // The proposal on the map: a line and the stops per proposed tour; tours left out are drawn thin.
  const features = useMemo(() => (proposal ? proposalFeatures(proposal, stopById) : { lines: [], points: [] }), [proposal, stopById]);
  useEffect(() => {
    if (!map) return;
    setLayerData(map, 'tours', features.lines);
    setLayerData(map, 'stops', features.points);
    const container = map.getContainer();
    container.dataset.tours = String(features.lines.length);
    container.dataset.stops = String(features.points.length);
    const bounds = boundsOf([...features.lines, ...features.points]);
    if (bounds) map.fitBounds(bounds, { padding: 40, maxZoom: 14, animate: false });
  }, [map, features]);

  const zoneOf = (b: Booking | undefined) => (b ? areas.get(b.service_area_id)?.time_zone : undefined);
  // One service is planned at a time, so the chosen bookings share an area and its clock: shift and job times are on it too.
  const chosenZones = zones.zonesOf(bookings.filter((b) => selection.has(b.id)).map((b) => b.service_area_id));
  const planZone = chosenZones[0];
  const stopType = (s: Stop) => (s.type === 'pickup' || s.type === 'dropoff' ? tc(`stop.${s.type}`) : s.type);

  return (
    <section className="stack">
      <PageHead title={t('title')} timeZones={chosenZones.length ? chosenZones : zones.all} />
      <p className="muted">{t('intro')}</p>
      {waiting.isError ? <ErrorBanner error={waiting.error} /> : null}
      <div className="plan-layout">
        <form
          className="card plan-choices"
          onSubmit={(event) => {
            event.preventDefault();
            run();
          }}
        >
          <fieldset>
            <legend>{t('bookings')}</legend>
            {waiting.isPending ? <Loading label={tc('loading')} /> : null}
            {waiting.data && !bookings.length ? <p className="muted">{t('no_bookings')}</p> : null}
            {bookings.length ? (
              <>
                <p className="muted">{t('bookings_count', { selected: format.number(selection.size), total: format.number(bookings.length) })}</p>
                {waiting.data?.more ? <p className="muted">{t('more_bookings', { max: format.number(MAX_BOOKINGS) })}</p> : null}
                <div className="row">
                  <Button small onClick={() => setChosen(new Set(bookings.map((b) => b.id)))}>
                    {t('select_all')}
                  </Button>
                  <Button small onClick={() => setChosen(new Set())}>
                    {t('select_none')}
                  </Button>
                </div>
                <ul className="check-list">
                  {bookings.map((b) => (
                    <li key={b.id}>
                      <label>
                        <input type="checkbox" checked={selection.has(b.id)} onChange={(event) => setChosen(toggle(selection, b.id, event.target.checked))} />
                        <span>
                          {t('booking', { name: bookingName(b) })}{' '}
                          <span className="muted">{t('booking_detail', { stops: (b.stops ?? []).filter((s) => s.status === 'to_be_dispatched').length, area: areas.get(b.service_area_id)?.name ?? '' })}</span>
                        </span>
                      </label>
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </fieldset>
          <fieldset>
            <legend>{t('drivers')}</legend>
            <p className="muted">{t('drivers_hint')}</p>
            {drivers.isError ? <ErrorBanner error={drivers.error} /> : null}
            {drivers.data && !driverList.length ? <p className="muted">{t('no_drivers')}</p> : null}
            <ul className="check-list">
              {driverList.map((d) => (
                <li key={d.id}>
                  <label>
                    <input type="checkbox" checked={chosenDrivers.has(d.id)} onChange={(event) => setChosenDrivers(toggle(chosenDrivers, d.id, event.target.checked))} />
                    <span>{d.name}</span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
          {chosenDrivers.size ? (
            <label className="field">
              <span className="label">{t('objective')}</span>
              <select value={objective} onChange={(event) => setObjective(event.target.value as Objective)}>
                {(['balanced', 'fewest_tours', 'least_driving'] as const).map((o) => (
                  <option key={o} value={o}>
                    {t(`objective.${o}`)}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <Button type="submit" variant="primary" busy={plan.isPending} disabled={!selection.size}>
            {plan.isPending ? t('planning') : t('run')}
          </Button>
          {job ? (
            <p className="muted" role="status">
              {t('job_running', { at: format.time(job.created_at, planZone) })}
            </p>
          ) : null}
          {plan.isError ? <ErrorBanner error={plan.error} /> : null}
        </form>

        <div className="stack">
          <div className="card plan-map">
            <Suspense fallback={<Loading label={tc('loading')} />}>
              <MapCanvas label={t('map_label')} onReady={setMap} />
            </Suspense>
          </div>
          {apply.data ? <AppliedList results={apply.data} /> : null}
          {apply.isError ? <ErrorBanner error={apply.error} /> : null}
          <section className="stack plan-proposal" aria-labelledby="proposal-title">
            <h2 id="proposal-title">{t('proposal')}</h2>
            {!proposal ? <p className="muted">{t('no_proposal')}</p> : null}
            {proposal ? (
              <>
                <p>{t('proposal_summary', { tours: format.number(proposal.plan.tours.length), minutes: format.number(minutes(proposal.plan.travel_seconds)) })}</p>
                {/* Contract §15: the console says in words when the times are straight lines. */}
                {proposal.plan.travel_source === 'straight_line' ? <p role="note">{t('straight_line')}</p> : null}
                <p className="muted">{t('eta_hint')}</p>
                {outdated ? (
                  <Banner tone="warn" live>
                    {t('outdated')}
                  </Banner>
                ) : null}
                <ol className="plain-list stack" aria-label={t('list_label')}>
                  {proposal.plan.tours.map((tour, k) => {
                    const n = k + 1;
                    const included = proposal.included[k] ?? true;
                    return (
                      <li key={k} className="card plan-tour" data-included={String(included)} aria-labelledby={`plan-tour-${n}`}>
                        <div className="row-between">
                          <h3 id={`plan-tour-${n}`}>
                            <span className={`tour-swatch tour-color-${k % TOUR_PALETTE.length}`} aria-hidden="true">
                              {n}
                            </span>{' '}
                            {t('tour', { n })}
                          </h3>
                          <label>
                            <input type="checkbox" checked={included} onChange={(event) => setProposal({ ...proposal, included: proposal.included.map((v, i) => (i === k ? event.target.checked : v)) })} /> {t('include', { n })}
                          </label>
                        </div>
                        <p className="muted">{t('tour_summary', { stops: tour.stop_ids.length, bookings: tour.booking_ids.length, minutes: format.number(minutes(tour.travel_seconds)) })}</p>
                        {tour.driver_id ? (
                          <p className="plan-shift">
                            {t('planned_driver', { name: driverList.find((d) => d.id === tour.driver_id)?.name ?? tour.driver_id.slice(-6) })}
                            {tour.starts_at && tour.ends_at ? <span className="muted"> — {t('shift_time', { start: format.time(tour.starts_at, planZone), end: format.time(tour.ends_at, planZone) })}</span> : null}
                          </p>
                        ) : null}
                        {tour.running ? <p>{t('running_tour', { kept: tour.kept_stop_ids?.length ?? 0 })}</p> : null}
                        {driverList.length && !tour.running ? (
                          <label className="field">
                            <span className="label">{t('driver_for', { n })}</span>
                            <select value={proposal.drivers[k] ?? ''} onChange={(event) => setProposal({ ...proposal, drivers: proposal.drivers.map((v, i) => (i === k ? event.target.value || null : v)) })}>
                              <option value="">{t('no_driver')}</option>
                              {driverList.map((d) => (
                                <option key={d.id} value={d.id}>
                                  {d.name}
                                </option>
                              ))}
                            </select>
                          </label>
                        ) : null}
                        <ol className="plan-stops">
                          {tour.stop_ids.map((id, i) => {
                            const stop = stopById.get(id);
                            const booking = stop?.booking_id ? bookingById.get(stop.booking_id) : undefined;
                            const zone = zoneOf(booking);
                            return (
                              <li key={id}>
                                <span className="plan-eta">{t('eta', { at: format.time(tour.etas[i], zone) })}</span> {stop && booking ? t('stop_of', { type: stopType(stop), name: bookingName(booking) }) : tour.running ? t('tour_stop') : id}
                                {stop ? <span className="muted"> — {stop.address.street}{stop.address.number ? ` ${stop.address.number}` : ''}, {stop.address.city}</span> : null}
                                {stop?.time_window ? <span className="muted"> ({t('window', { start: format.time(stop.time_window.starts_at, zone), end: format.time(stop.time_window.ends_at, zone) })})</span> : null}
                              </li>
                            );
                          })}
                        </ol>
                        <div className="row">
                          {tour.booking_ids.map((id) => {
                            const booking = bookingById.get(id);
                            const name = booking ? bookingName(booking) : id.slice(-6);
                            return (
                              <Button key={id} small variant="ghost" onClick={() => setChosen(toggle(selection, id, false))} disabled={!selection.has(id)}>
                                {t('leave_out', { name })}
                              </Button>
                            );
                          })}
                        </div>
                      </li>
                    );
                  })}
                </ol>
                <section aria-labelledby="unplaced-title" className="card">
                  <h3 id="unplaced-title">{t('unplaced')}</h3>
                  {proposal.plan.unplaced.length ? (
                    <ul className="plain-list">
                      {proposal.plan.unplaced.map((u) => {
                        const stop = stopById.get(u.stop_id);
                        const booking = stop?.booking_id ? bookingById.get(stop.booking_id) : undefined;
                        return (
                          <li key={u.stop_id}>
                            {stop && booking ? (
                              <Link href={`/bookings/${booking.id}`}>{t('stop_of', { type: stopType(stop), name: bookingName(booking) })}</Link>
                            ) : (
                              u.stop_id
                            )}
                            : {t(`reason.${u.reason}`)}
                            {u.detail ? <span className="muted"> ({u.detail})</span> : null}
                          </li>
                        );
                      })}
                    </ul>
                  ) : (
                    <p className="muted">{t('unplaced_none')}</p>
                  )}
                </section>
                <div className="row">
                  <Button variant="primary" busy={apply.isPending} disabled={!kept.length || outdated} onClick={applyKept}>
                    {apply.isPending ? t('applying') : t('apply', { count: kept.length })}
                  </Button>
                </div>
              </>
            ) : null}
          </section>
        </div>
      </div>
    </section>
  );
}

function AppliedList({ results }: { results: Applied[] }) {
  const t = useT(messages);
  const created = results.filter((r) => r.tourId && !r.running);
  return (
    <div className="stack" aria-live="polite">
      {created.length ? <Banner tone="ok">{t('applied', { count: created.length })}</Banner> : null}
      <ul className="plain-list">
        {results.map((r) => (
          <li key={r.index}>
            {r.tourId ? <Link href={`/tours/${r.tourId}`}>{t(r.running ? 'updated_tour' : 'applied_tour', { n: r.index + 1 })}</Link> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
