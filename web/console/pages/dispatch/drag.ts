// What a drag carries on the board: bookings (their ids) or a tour's stops (stop and source tour). Custom types keep
// a drop target from accepting anything else; text/plain names the item for other applications.
import type { DropItem } from 'react-aria-components';

export const BOOKING = 'application/x-tourbook-booking';
export const STOP = 'application/x-tourbook-stop';

export interface DraggedStop {
  stop_id: string;
  tour_id: string;
  /** The stop's booking: a stop dropped on another tour moves its booking's open stops with it (decision 1640). */
  booking_id: string | null;
}

/** The payloads of `type` among the dropped items, in drag order. */
export async function payloads(items: DropItem[], type: typeof BOOKING): Promise<string[]>;
export async function payloads(items: DropItem[], type: typeof STOP): Promise<DraggedStop[]>;
export async function payloads(items: DropItem[], type: string): Promise<unknown[]> {
  const texts = await Promise.all(items.map((item) => (item.kind === 'text' && item.types.has(type) ? item.getText(type) : Promise.resolve(null))));
  return texts.filter((text): text is string => text !== null).map((text) => (type === STOP ? (JSON.parse(text) as DraggedStop) : text));
}
