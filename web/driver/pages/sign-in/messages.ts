import { defineMessages } from '../../../i18n/index.tsx';

export const messages = defineMessages({
  en: {
    title: 'Sign in to drive',
    email: 'Email',
    password: 'Password',
    tenant: 'Tenant',
    tenant_hint: 'This e-mail belongs to several tenants: choose one.',
    sign_in: 'Sign in',
    wrong: 'The e-mail or password is not right.',
    not_for_role: 'The driver app is for drivers. Dispatchers use the console:',
    console: 'open the console',
    sign_out: 'Sign out',
  },
  de: {
    title: 'Zum Fahren anmelden',
    email: 'E-Mail',
    password: 'Passwort',
    tenant: 'Mandant',
    tenant_hint: 'Diese E-Mail gehört zu mehreren Mandanten: Wählen Sie einen.',
    sign_in: 'Anmelden',
    wrong: 'E-Mail oder Passwort stimmt nicht.',
    not_for_role: 'Die Fahrer-App ist für Fahrer. Disponenten nutzen die Konsole:',
    console: 'Konsole öffnen',
    sign_out: 'Abmelden',
  },
});
