// One open tour on the board: its stops in order as a GridList that accepts dropped bookings (insert their waiting
// stops there) and stops (reorder within the tour, or move from another tour) — all through insert with a position
// (the API guide, "Dispatch"). Only scheduled stops can be dragged: insert moves nothing else. The list always shows
// the tour as the API has it, so a refused drop (a drop-off before its pickup) leaves the stop where it was.
import type { Key } from 'react-aria-components';
import { Button, DropIndicator, GridList, GridListItem, useDragAndDrop } from 'react-aria-components';
import { Link } from 'wouter';
import type { Schemas } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useT } from '../../../i18n/index.tsx';
import { TOUR_PALETTE } from '../../../map/index.ts';
import { StatusBadge, useTourName } from '../../../ui/index.ts';
import { BOOKING, STOP, payloads, type DraggedStop } from './drag.ts';
import { messages } from './messages.ts';

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

/** `index`: the lane's place on the board, its colour and number (decision 1543), as on the map and plan pages. */
export function TourLane({ tour, index, onDrop }: { tour: Tour; index: number; onDrop: (drop: LaneDrop) => void }) {
  const t = useT(messages);
  const tc = useT(common);
  // The name a person reads (decision 1603); the short reference tells apart two tours of one name (decision 1681).
  const name = useTourName()(tour);
  const shortId = tour.id.slice(-8);
  const stops = [...(tour.stops ?? [])].sort((a, b) => (a.tour_position ?? 0) - (b.tour_position ?? 0));
  const stopLabel = (stop: Stop, index: number) =>
    t('stop_item', { position: index + 1, kind: stop.type === 'pickup' || stop.type === 'dropoff' ? tc(`stop.${stop.type}`) : stop.type, address: addressLine(stop) });

  /** The insert position for a drop before or after `key`, counted among the stops that stay (moved ones left out). */
  const positionAt = (key: Key, where: 'before' | 'after' | 'on', moving: Set<string>): number => {
    const staying = stops.filter((s) => !moving.has(s.id));
    const index = staying.findIndex((s) => s.id === key);
    return index < 0 ? staying.length : where === 'before' ? index : index + 1;
  };

  const { dragAndDropHooks } = useDragAndDrop<Stop>({
    getItems: (keys) =>
      [...keys].map((key) => ({ [STOP]: JSON.stringify({ stop_id: String(key), tour_id: tour.id, booking_id: stops.find((s) => s.id === key)?.booking_id ?? null }), 'text/plain': String(key) })),
    acceptedDragTypes: [BOOKING, STOP],
    getDropOperation: () => 'move',
    renderDropIndicator: (target) => <DropIndicator target={target} className="drop-indicator" />,
    onReorder: (e) => onDrop({ kind: 'stops', stopIds: [...e.keys].map(String), tourId: tour.id, position: positionAt(e.target.key, e.target.dropPosition, new Set([...e.keys].map(String))) }),
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

  return (
    <section className="card stack lane" aria-labelledby={`lane-${tour.id}`}>
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
      <GridList
        aria-label={t('tour_stops', { name, ref: shortId })}
        className="dnd-list"
        items={stops}
        disabledKeys={stops.filter((s) => s.status !== 'scheduled').map((s) => s.id)}
        dragAndDropHooks={dragAndDropHooks}
        renderEmptyState={() => <p className="muted">{t('tour_empty')}</p>}
      >
        {(stop) => (
          <GridListItem id={stop.id} textValue={stopLabel(stop, stops.indexOf(stop))} className="dnd-item">
            <Button slot="drag" className="drag-button" aria-label={t('drag_stop', { name: stopLabel(stop, stops.indexOf(stop)) })}>
              <span aria-hidden="true">⠿</span>
            </Button>
            <span className="grow">{stopLabel(stop, stops.indexOf(stop))}</span>
            <StatusBadge status={stop.status} />
          </GridListItem>
        )}
      </GridList>
    </section>
  );
}
