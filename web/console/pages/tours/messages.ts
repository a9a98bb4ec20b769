import { defineMessages } from '../../../i18n/index.tsx';

export const messages = defineMessages({
  en: {
    title: 'Tours',
    filters: 'Filters',
    status: 'Status',
    any_status: 'Any status',
    apply: 'Apply filters',
    col_tour: 'Tour',
    col_status: 'Status',
    col_driver: 'Driver',
    col_stops: 'Stops',
    col_scheduled: 'Scheduled',
    empty: 'No tours match these filters.',
    stops_done: '{done} / {total}',
  },
  de: {
    title: 'Touren',
    filters: 'Filter',
    status: 'Status',
    any_status: 'Jeder Status',
    apply: 'Filter anwenden',
    col_tour: 'Tour',
    col_status: 'Status',
    col_driver: 'Fahrer',
    col_stops: 'Stopps',
    col_scheduled: 'Geplant',
    empty: 'Keine Touren entsprechen diesen Filtern.',
    stops_done: '{done} / {total}',
  },
});
