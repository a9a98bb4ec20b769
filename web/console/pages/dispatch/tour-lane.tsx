// One open tour on the board: its stops in order as a GridList that accepts dropped bookings (insert their waiting
// stops there) and stops (reorder within the tour, or move from another tour) — all through insert with a position
// (the API guide, "Dispatch"). Only scheduled stops can be dragged: insert moves nothing else. The list always shows
// the tour as the API has it, so a refused drop (a drop-off before its pickup) leaves the stop where it was.
// Consecutive stops of one type at one place are one row that expands (stop-groups.ts, decision 1652); the heading
// says who drives, the dispatcher's label, the load and the finish, so a day's lanes can be read side by side.
import { useState } from 'react';
import type { Key } from 'react-aria-components';
import { Button, DropIndicator, GridList, GridListItem, useDragAndDrop } from 'react-aria-components';
import { Link } from 'wouter';
import type { Schemas } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useFormat, useT } from '../../../i18n/index.tsx';
import { TOUR_PALETTE } from '../../../map/index.ts';
import { StatusBadge, useTourName } from '../../../ui/index.ts';
import { BOOKING, STOP, payloads, type DraggedStop } from './drag.ts';
import { messages } from './messages.ts';
import { groupKey, groupStarts, laneRows, stopIdsOf, type LaneRow } from './stop-groups.ts';

type Tour = Schemas['Tour'];
type Stop = Schemas['Stop'];

export type LaneDrop =
  | { kind: 'bookings'; bookingIds: string[]; tourId: string; position?: number }
  | { kind: 'stops'; stopIds: string[]; tourId: string; position?: number }
  /** Stops of bookings dragged from another tour: each booking's open stops move together, never a lone drop-off. */
  | { kind: 'booking_stops'; bookingIds: string[]; tourId: string; position?: number };

/** The bookings of stops dragged in from another tour (a booking's stops move together; stops of no booking move alone). */
const bookingsFromOtherTours = (dragged: readonly DraggedStop[], tourId: string): string[] => [
  ...new Set(dragged.filter((s) => s.tour_id !== tourId && s.booking_id !== null).map((s) => s.booking_id!)),
];

const addressLine = (stop: Stop): string => [[stop.address.street, stop.address.number].filter(Boolean).join(' '), stop.address.city].filter(Boolean).join(', ');

export interface LaneContext {
  /** The tour's driver by id, for the heading. */
  driverName: (id: string) => string | undefined;
  /** A place's name by id, for a group's row ("8 pickups · Depot"). */
  placeName: (id: string) => string | undefined;
  /** The tour's service area's zone: the finish is on its clock. */
  timeZone: string | undefined;
  /** Narrower lanes, one line per row: 40 tours on a screen. */
  compact: boolean;
}

/** `index`: the lane's place on the board, its colour and number (decision 1543), as on the map and plan pages. */
export function TourLane({ tour, index, onDrop, context }: { tour: Tour; index: number; onDrop: (drop: LaneDrop) => void; context: LaneContext }) {
  const t = useT(messages);
  const tc = useT(common);
  const format = useFormat();
  // The name a person reads (decision 1603); the short reference tells apart two tours of one name (decision 1681).
  const name = useTourName()(tour);
  const shortId = tour.id.slice(-8);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const stops = [...(tour.stops ?? [])].sort((a, b) => (a.tour_position ?? 0) - (b.tour_position ?? 0));
  const rows = laneRows(stops, expanded);
  const startsOf = groupStarts(stops);
  const kindOf = (type: string) => (type === 'pickup' || type === 'dropoff' ? tc(`stop.${type}`) : type);
  const stopLabel = (stop: Stop) => t('stop_item', { position: stops.indexOf(stop) + 1, kind: kindOf(stop.type), address: addressLine(stop) });
  const groupLabel = (group: Stop[]) => {
    const first = group[0]!;
    const where = (first.place_id ? context.placeName(first.place_id) : undefined) ?? addressLine(first);
    return t(first.type === 'dropoff' ? 'group_dropoffs' : first.type === 'pickup' ? 'group_pickups' : 'group_stops', {
      count: group.length,
      where,
      from: stops.indexOf(first) + 1,
      to: stops.indexOf(group[group.length - 1]!) + 1,
    });
  };
  const rowLabel = (row: LaneRow) => (row.kind === 'group' ? groupLabel(row.stops) : stopLabel(row.stop));
  const toggle = (key: string) =>
    setExpanded((now) => {
      const next = new Set(now);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  /** The insert position for a drop before or after row `key`, counted among the stops that stay (moved ones left out). */
  const positionAt = (key: Key, where: 'before' | 'after' | 'on', moving: Set<string>): number => {
    const staying = stops.filter((s) => !moving.has(s.id));
    const target = stopIdsOf(rows, [String(key)]).filter((id) => !moving.has(id));
    const first = staying.findIndex((s) => s.id === target[0]);
    if (first < 0) return staying.length;
    return where === 'before' ? first : first + target.length;
  };

  const dragged = (key: Key) => {
    const stop = stops.find((s) => s.id === key);
    return { [STOP]: JSON.stringify({ stop_id: String(key), tour_id: tour.id, booking_id: stop?.booking_id ?? null }), 'text/plain': String(key) };
  };
  const { dragAndDropHooks } = useDragAndDrop<LaneRow>({
    // A group's row carries each of its stops.
    getItems: (keys) => stopIdsOf(rows, [...keys].map(String)).map(dragged),
    acceptedDragTypes: [BOOKING, STOP],
    getDropOperation: () => 'move',
    renderDropIndicator: (target) => <DropIndicator target={target} className="drop-indicator" />,
    onReorder: (e) => {
      const moved = stopIdsOf(rows, [...e.keys].map(String));
      onDrop({ kind: 'stops', stopIds: moved, tourId: tour.id, position: positionAt(e.target.key, e.target.dropPosition, new Set(moved)) });
    },
    onInsert: async (e) => {
      const bookingIds = await payloads(e.items, BOOKING);
      const dragged = await payloads(e.items, STOP);
      const moved = dragged.map((s) => s.stop_id);
      const fromElsewhere = bookingsFromOtherTours(dragged, tour.id);
      if (bookingIds.length) onDrop({ kind: 'bookings', bookingIds, tourId: tour.id, position: positionAt(e.target.key, e.target.dropPosition, new Set()) });
      else if (fromElsewhere.length) onDrop({ kind: 'booking_stops', bookingIds: fromElsewhere, tourId: tour.id, position: positionAt(e.target.key, e.target.dropPosition, new Set()) });
      else if (moved.length) onDrop({ kind: 'stops', stopIds: moved, tourId: tour.id, position: positionAt(e.target.key, e.target.dropPosition, new Set(moved)) });
    },
    onRootDrop: async (e) => {
      const bookingIds = await payloads(e.items, BOOKING);
      const dragged = await payloads(e.items, STOP);
      const fromElsewhere = bookingsFromOtherTours(dragged, tour.id);
      if (bookingIds.length) onDrop({ kind: 'bookings', bookingIds, tourId: tour.id });
      else if (fromElsewhere.length) onDrop({ kind: 'booking_stops', bookingIds: fromElsewhere, tourId: tour.id });
      else if (dragged.length) onDrop({ kind: 'stops', stopIds: dragged.map((s) => s.stop_id), tourId: tour.id });
    },
  });

  const driver = tour.driver_id ? (context.driverName(tour.driver_id) ?? t('driver_unknown')) : t('no_driver');
  const parcels = new Set(stops.flatMap((s) => s.package_ids)).size;
  const lastEta = [...stops].reverse().find((s) => s.eta)?.eta ?? null;
  const draggable = (row: LaneRow) => (row.kind === 'group' ? row.stops[0]!.status === 'scheduled' : row.stop.status === 'scheduled');

  return (
    <section className={`card stack lane${context.compact ? ' compact' : ''}`} aria-labelledby={`lane-${tour.id}`}>
      <div className="row-between">
        <h3 id={`lane-${tour.id}`}>
          <span className={`tour-swatch tour-color-${index % TOUR_PALETTE.length}`} aria-hidden="true">
            {index + 1}
          </span>{' '}
          <Link href={`/tours/${tour.id}`} aria-label={t('open_tour', { name, ref: shortId })}>
            {name} <span className="muted">· {shortId}</span>
          </Link>
        </h3>
        <StatusBadge status={tour.status} />
      </div>
      <p className="lane-facts muted">
        {tour.label?.trim() ? <span>{t('lane_driver', { driver })}</span> : null}
        <span>{t('lane_stops', { count: stops.length })}</span>
        <span>{t('lane_parcels', { count: parcels })}</span>
        <span>{lastEta ? t('lane_finish', { time: format.time(lastEta, context.timeZone) }) : t('lane_finish_unknown')}</span>
      </p>
      <GridList
        aria-label={t('tour_stops', { name, ref: shortId })}
        className="dnd-list"
        items={rows}
        disabledKeys={rows.filter((row) => !draggable(row)).map((row) => row.id)}
        dragAndDropHooks={dragAndDropHooks}
        renderEmptyState={() => <p className="muted">{t('tour_empty')}</p>}
      >
        {(row) => {
          const label = rowLabel(row);
          const groupOfStop = row.kind === 'stop' ? startsOf.get(row.stop.id) : undefined;
          const status = row.kind === 'group' ? row.stops[0]!.status : row.stop.status;
          return (
            <GridListItem id={row.id} textValue={label} className={`dnd-item${row.kind === 'group' ? ' dnd-group' : ''}`}>
              <Button slot="drag" className="drag-button" aria-label={t('drag_stop', { name: label })}>
                <span aria-hidden="true">⠿</span>
              </Button>
              <span className="grow row-text" title={context.compact ? label : undefined}>
                {label}
              </span>
              <span className="row-extras">
                {row.kind === 'group' ? (
                  <Button className="btn btn-small" onPress={() => toggle(row.id)} aria-label={t('expand_group', { name: label })}>
                    {t('expand')}
                  </Button>
                ) : groupOfStop === groupKey(row.stop.id) ? (
                  <Button className="btn btn-small" onPress={() => toggle(groupOfStop)} aria-label={t('collapse_group', { position: stops.indexOf(row.stop) + 1 })}>
                    {t('collapse')}
                  </Button>
                ) : null}
                {/* Compact lanes say a stop's status only when it is not the usual "scheduled". */}
                {context.compact && status === 'scheduled' ? null : <StatusBadge status={status} />}
              </span>
            </GridListItem>
          );
        }}
      </GridList>
    </section>
  );
}
