import { defineMessages } from '../../../i18n/index.tsx';

export const messages = defineMessages({
  en: {
    title: 'Sign in to Tourbook',
    email: 'Email',
    password: 'Password',
    tenant: 'Tenant',
    tenant_hint: 'This e-mail belongs to several tenants: choose one.',
    sign_in: 'Sign in',
    wrong: 'The e-mail or password is not right.',
    not_for_driver: 'The console is for dispatchers. Drivers use the driver app:',
    not_for_customer: 'The console is for dispatchers. Customers follow their bookings through the API and the tracking links Tourbook sends.',
    driver_app: 'open the driver app',
    sign_out: 'Sign out',
  },
  de: {
    title: 'Bei Tourbook anmelden',
    email: 'E-Mail',
    password: 'Passwort',
    tenant: 'Mandant',
    tenant_hint: 'Diese E-Mail gehört zu mehreren Mandanten: Wählen Sie einen.',
    sign_in: 'Anmelden',
    wrong: 'E-Mail oder Passwort stimmt nicht.',
    not_for_driver: 'Die Konsole ist für Disponenten. Fahrer nutzen die Fahrer-App:',
    not_for_customer: 'Die Konsole ist für Disponenten. Kunden verfolgen ihre Buchungen über die API und die Tracking-Links, die Tourbook sendet.',
    driver_app: 'Fahrer-App öffnen',
    sign_out: 'Abmelden',
  },
});
