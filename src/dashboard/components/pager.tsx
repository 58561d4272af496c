/**
 * @module dashboard/components/pager
 * First / previous / next / last buttons for a paged list, with where the reader is.
 */

/** Moves through `pages` pages; `label` names the list for screen readers (e.g. "Tool list pages"). */
export function Pager({ label, page, pages, onPage }: { label: string; page: number; pages: number; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" class="quiet" disabled={page <= 1} onClick={() => onPage(1)}>
        First
      </button>
      <button type="button" class="quiet" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span class="small">
        Page {page} of {pages}
      </span>
      <button type="button" class="quiet" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
      <button type="button" class="quiet" disabled={page >= pages} onClick={() => onPage(pages)}>
        Last
      </button>
    </nav>
  );
}
