import { defineMessages } from '../../../i18n/index.tsx';

export const messages = defineMessages({
  en: {
    title: 'Welcome to Tourbook',
    intro: 'Choose your password. This link works once; afterwards you sign in with your e-mail address and this password.',
    password: 'New password',
    password_hint: 'At least 8 characters.',
    repeat: 'Repeat the password',
    mismatch: 'The two passwords differ.',
    submit: 'Set password and sign in',
    no_token: 'This page needs the link from your invitation (or from the first start of Tourbook). Open the link as it is.',
    signed_in_as: 'Your password is set. You sign in as {email}.',
    go_on: 'Open the console',
    sign_in: 'Sign in',
  },
  de: {
    title: 'Willkommen bei Tourbook',
    intro: 'Wählen Sie Ihr Passwort. Dieser Link funktioniert einmal; danach melden Sie sich mit Ihrer E-Mail-Adresse und diesem Passwort an.',
    password: 'Neues Passwort',
    password_hint: 'Mindestens 8 Zeichen.',
    repeat: 'Passwort wiederholen',
    mismatch: 'Die beiden Passwörter sind verschieden.',
    submit: 'Passwort festlegen und anmelden',
    no_token: 'Diese Seite braucht den Link aus Ihrer Einladung (oder vom ersten Start von Tourbook). Öffnen Sie den Link so, wie er ist.',
    signed_in_as: 'Ihr Passwort ist festgelegt. Sie melden sich als {email} an.',
    go_on: 'Zur Konsole',
    sign_in: 'Anmelden',
  },
});
