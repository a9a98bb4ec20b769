// The sign-in form's words, the same on the console and in the driver app (its title comes from the page).
import { defineMessages } from '../i18n/index.tsx';

export const messages = defineMessages({
  en: {
    email: 'Email',
    password: 'Password',
    tenant: 'Tenant',
    tenant_hint: 'This e-mail belongs to several tenants: choose one.',
    sign_in: 'Sign in',
    wrong: 'The e-mail or password is not right.',
  },
  de: {
    email: 'E-Mail',
    password: 'Passwort',
    tenant: 'Mandant',
    tenant_hint: 'Diese E-Mail gehört zu mehreren Mandanten: Wählen Sie einen.',
    sign_in: 'Anmelden',
    wrong: 'E-Mail oder Passwort stimmt nicht.',
  },
});
