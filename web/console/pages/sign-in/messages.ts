import { defineMessages } from '../../../i18n/index.tsx';

export const messages = defineMessages({
  en: {
    title: 'Sign in to Tourbook',
    not_for_driver: 'The console is for dispatchers. Drivers use the driver app:',
    not_for_customer: 'The console is for dispatchers. Customers follow their bookings through the API and the tracking links Tourbook sends.',
    driver_app: 'open the driver app',
    sign_out: 'Sign out',
  },
  de: {
    title: 'Bei Tourbook anmelden',
    not_for_driver: 'Die Konsole ist für Disponenten. Fahrer nutzen die Fahrer-App:',
    not_for_customer: 'Die Konsole ist für Disponenten. Kunden verfolgen ihre Buchungen über die API und die Tracking-Links, die Tourbook sendet.',
    driver_app: 'Fahrer-App öffnen',
    sign_out: 'Abmelden',
  },
});
