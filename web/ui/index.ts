// Shared components and styles for every page.
export { Badge, Banner, Button, Dialog, Loading, PageHead, SelectField, TextArea, TextField } from './components.tsx';
export { ErrorBanner, errorsAt } from './errors.tsx';
export { StatusBadge } from './status.tsx';
export { useLatest } from './use-latest.ts';
export { markReactAriaStylesPresent } from './react-aria.ts';
export { Pager, useCursorPages, type CursorPages } from './pager.tsx';
export { SignInForm } from './sign-in-form.tsx';
export { useTourName } from './use-tour-name.ts';
export { deviceZone, TimesNote, useAreaZones, zoneLabel } from './times-note.tsx';
