// Bookings waiting for dispatch as a draggable list (pointer and keyboard, react-aria's GridList): select several
// with Space or a click, then drag them onto "New tour" or a tour.
import { Button, GridList, GridListItem, useDragAndDrop } from 'react-aria-components';
import { waitingStopIds, type Schemas } from '../../../api/index.ts';
import { useT } from '../../../i18n/index.tsx';
import { BOOKING } from './drag.ts';
import { messages } from './messages.ts';

type Booking = Schemas['Booking'];

export const bookingName = (booking: Booking): string => booking.external_id ?? booking.id.slice(-8);

export function WaitingList({ bookings }: { bookings: Booking[] }) {
  const t = useT(messages);
  const { dragAndDropHooks } = useDragAndDrop<Booking>({
    getItems: (keys) => [...keys].map((key) => {
      const booking = bookings.find((b) => b.id === key);
      return { [BOOKING]: String(key), 'text/plain': booking ? bookingName(booking) : String(key) };
    }),
  });
  return (
    <GridList
      aria-label={t('waiting')}
      className="dnd-list"
      items={bookings}
      selectionMode="multiple"
      dragAndDropHooks={dragAndDropHooks}
      renderEmptyState={() => <p className="muted">{t('waiting_empty')}</p>}
    >
      {(booking) => {
        const label = t('booking_item', { name: bookingName(booking), stops: waitingStopIds(booking).length });
        return (
          <GridListItem id={booking.id} textValue={bookingName(booking)} className="dnd-item">
            <Button slot="drag" className="drag-button" aria-label={t('drag_booking', { name: bookingName(booking) })}>
              <span aria-hidden="true">⠿</span>
            </Button>
            <span>{label}</span>
          </GridListItem>
        );
      }}
    </GridList>
  );
}
