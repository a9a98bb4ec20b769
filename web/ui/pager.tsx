// Cursor paging for lists (the API's `meta.next_cursor`): the cursors of the pages before this one are kept, so
// "Previous page" goes back without the API paging backwards.
import { useCallback, useState } from 'react';
import { common } from '../i18n/common.ts';
import { useT } from '../i18n/index.tsx';
import { Button } from './components.tsx';

export interface CursorPages {
  /** The cursor of the page on screen (undefined: the first page). */
  cursor: string | undefined;
  page: number;
  back: (() => void) | null;
  forward: (next: string | null | undefined) => void;
  reset: () => void;
}

export function useCursorPages(): CursorPages {
  const [cursors, setCursors] = useState<string[]>([]);
  const forward = useCallback((next: string | null | undefined) => {
    if (next) setCursors((previous) => [...previous, next]);
  }, []);
  const reset = useCallback(() => setCursors([]), []);
  return {
    cursor: cursors.at(-1),
    page: cursors.length + 1,
    back: cursors.length ? () => setCursors((previous) => previous.slice(0, -1)) : null,
    forward,
    reset,
  };
}

export function Pager({ label, pages, meta }: { label: string; pages: CursorPages; meta: { has_more: boolean; next_cursor: string | null } | undefined }) {
  const t = useT(common);
  // One page needs no paging controls.
  if (!pages.back && !meta?.has_more) return null;
  return (
    <nav className="row-between" aria-label={label}>
      <Button disabled={!pages.back} onClick={() => pages.back?.()}>
        {t('previous_page')}
      </Button>
      <span className="muted">{t('page', { page: pages.page })}</span>
      <Button disabled={!meta?.has_more} onClick={() => pages.forward(meta?.next_cursor)}>
        {t('next_page')}
      </Button>
    </nav>
  );
}
