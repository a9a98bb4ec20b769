// What a dispatcher does with the bookings selected in the list: make a tour of them (merge, then open the new tour)
// or add them to an open tour (insert) — the API guide, "Dispatch". Errors come back in words; the selection stays.
import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { useInsertBookings, useMergeBookings, useOpenTours } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useT } from '../../../i18n/index.tsx';
import { Button, Dialog, ErrorBanner, SelectField, errorsAt, useTourName } from '../../../ui/index.ts';
import { messages } from './messages.ts';

export function SelectionActions({ selected, onClear }: { selected: Map<string, string>; onClear: () => void }) {
  const t = useT(messages);
  const tc = useT(common);
  const [, navigate] = useLocation();
  const merge = useMergeBookings();
  const insert = useInsertBookings();
  const [choosing, setChoosing] = useState(false);
  const ids = [...selected.keys()];

  const makeTour = () => {
    insert.reset();
    merge.mutate(ids, {
      onSuccess: (tour) => {
        onClear();
        navigate(`/tours/${tour.id}`);
      },
    });
  };

  return (
    <section className="card stack selection-bar" aria-label={t('selection')}>
      <div className="row-between">
        <strong role="status">{t('selected', { count: ids.length })}</strong>
        <div className="row">
          <Button variant="primary" busy={merge.isPending} onClick={makeTour}>
            {t('make_tour')}
          </Button>
          <Button onClick={() => (merge.reset(), insert.reset(), setChoosing(true))}>{t('add_to_tour')}</Button>
          <Button variant="ghost" onClick={onClear}>
            {t('clear_selection')}
          </Button>
        </div>
      </div>
      {merge.isError ? <ErrorBanner error={merge.error} /> : null}
      <Dialog open={choosing} onClose={() => setChoosing(false)} title={t('add_to_tour_title', { count: ids.length })}>
        {choosing ? <AddToTourForm bookingIds={ids} insert={insert} onDone={(tourId) => (setChoosing(false), onClear(), navigate(`/tours/${tourId}`))} onCancel={() => setChoosing(false)} cancelLabel={tc('cancel')} /> : null}
      </Dialog>
    </section>
  );
}

function AddToTourForm({ bookingIds, insert, onDone, onCancel, cancelLabel }: { bookingIds: string[]; insert: ReturnType<typeof useInsertBookings>; onDone: (tourId: string) => void; onCancel: () => void; cancelLabel: string }) {
  const t = useT(messages);
  const tc = useT(common);
  const tours = useOpenTours();
  const nameOf = useTourName();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const tourId = String(new FormData(event.currentTarget).get('tour_id') ?? '');
    insert.mutate({ tourId, bookingIds }, { onSuccess: () => onDone(tourId) });
  };
  return (
    <form className="stack" onSubmit={submit}>
      {tours.isError ? <ErrorBanner error={tours.error} /> : null}
      <SelectField label={t('tour')} name="tour_id" required defaultValue="" errors={errorsAt(insert.error, '/stop_ids')}>
        <option value="" disabled>
          {tours.isPending ? tc('loading') : t('choose_tour')}
        </option>
        {(tours.data ?? []).map((tour) => (
          <option key={tour.id} value={tour.id}>
            {t('tour_option', { id: nameOf(tour), status: tc(`status.${tour.status}`), stops: (tour.stops ?? []).length })}
          </option>
        ))}
      </SelectField>
      {insert.isError ? <ErrorBanner error={insert.error} shownPointers={['/stop_ids']} /> : null}
      <div className="row">
        <Button type="submit" variant="primary" busy={insert.isPending}>
          {t('add')}
        </Button>
        <Button onClick={onCancel}>{cancelLabel}</Button>
      </div>
    </form>
  );
}
