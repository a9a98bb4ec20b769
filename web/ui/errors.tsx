// An API error in words: the problem's detail, and the field errors no field on the page shows itself.
import { isApiError } from '../api/index.ts';
import { common } from '../i18n/common.ts';
import { useT } from '../i18n/index.tsx';
import { Banner } from './components.tsx';

export function ErrorBanner({ error, shownPointers = [] }: { error: unknown; shownPointers?: string[] }) {
  const t = useT(common);
  if (!error) return null;
  if (!isApiError(error)) return <Banner tone="error">{error instanceof Error && error.name !== 'ConnectionError' ? error.message : t('connection_lost')}</Banner>;
  const rest = error.fieldErrors.filter((e) => !shownPointers.some((p) => e.pointer === p || e.pointer.startsWith(`${p}/`)));
  return (
    <Banner tone="error">
      <strong>{error.message}</strong>
      {rest.length ? (
        <ul>
          {rest.map((e, i) => (
            <li key={i}>
              <code>{e.pointer || e.parameter}</code>: {e.detail}
            </li>
          ))}
        </ul>
      ) : null}
    </Banner>
  );
}

/** The messages for one field from an API error (exact pointer or below it). */
export const errorsAt = (error: unknown, pointer: string): string[] | undefined =>
  isApiError(error) ? error.at(pointer).map((e) => e.detail) : undefined;
