import { defineMessages } from '../../../i18n/index.tsx';

export const messages = defineMessages({
  en: {
    title: 'Sign in to drive',
    not_for_role: 'The driver app is for drivers. Dispatchers use the console:',
    console: 'open the console',
    sign_out: 'Sign out',
  },
  de: {
    title: 'Zum Fahren anmelden',
    not_for_role: 'Die Fahrer-App ist für Fahrer. Disponenten nutzen die Konsole:',
    console: 'Konsole öffnen',
    sign_out: 'Abmelden',
  },
});
