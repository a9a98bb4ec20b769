import { defineMessages } from '../../../i18n/index.tsx';

export const messages = defineMessages({
  en: {
    title: 'Pay',
    caption: 'Your pay per tour',
    tour: 'Tour',
    base: 'Base',
    bonuses: 'Bonuses',
    tips: 'Tips',
    total: 'Total',
    none: 'No tours yet.',
    unavailable: 'not available',
    paused: 'Tips paused',
  },
  de: {
    title: 'Verdienst',
    caption: 'Ihr Verdienst je Tour',
    tour: 'Tour',
    base: 'Grundbetrag',
    bonuses: 'Boni',
    tips: 'Trinkgeld',
    total: 'Summe',
    none: 'Noch keine Touren.',
    unavailable: 'nicht verfügbar',
    paused: 'Trinkgeld pausiert',
  },
});
