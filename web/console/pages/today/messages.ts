import { defineMessages } from '../../../i18n/index.tsx';

export const messages = defineMessages({
  en: {
    title: 'Today',
    waiting: 'Bookings waiting for dispatch',
    more: '{count} or more',
    open: 'Open the list',
  },
  de: {
    title: 'Heute',
    waiting: 'Buchungen, die auf Disposition warten',
    more: '{count} oder mehr',
    open: 'Liste öffnen',
  },
});
