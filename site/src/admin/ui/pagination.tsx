type PaginationProps = {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  label?: string;
};

/** Page numbers around the current one, with the first and last always reachable. */
export function pageWindow(page: number, pages: number): (number | 'gap')[] {
  const wanted = new Set([1, pages, page - 1, page, page + 1].filter((value) => value >= 1 && value <= pages));
  const sorted = [...wanted].sort((a, b) => a - b);
  const out: (number | 'gap')[] = [];
  for (const value of sorted) {
    const last = out[out.length - 1];
    if (typeof last === 'number' && value - last > 1) out.push('gap');
    out.push(value);
  }
  return out;
}

export function Pagination({ page, pageSize, total, onPage, label = 'Pages' }: PaginationProps) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (total === 0) return null;
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <nav className="pagination" aria-label={label}>
      <span className="pagination__summary muted">{`Showing ${first}–${last} of ${total}`}</span>
      {pages > 1 && (
        <ul className="pagination__pages">
          <li>
            <button type="button" className="button button--small button--secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
              Previous
            </button>
          </li>
          {pageWindow(page, pages).map((entry, index) =>
            entry === 'gap' ? (
              <li key={`gap-${index}`} className="pagination__gap" aria-hidden="true">
                …
              </li>
            ) : (
              <li key={entry}>
                <button
                  type="button"
                  className={`button button--small ${entry === page ? '' : 'button--secondary'}`}
                  aria-current={entry === page ? 'page' : undefined}
                  aria-label={`Page ${entry}`}
                  onClick={() => onPage(entry)}
                >
                  {entry}
                </button>
              </li>
            ),
          )}
          <li>
            <button type="button" className="button button--small button--secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
              Next
            </button>
          </li>
        </ul>
      )}
    </nav>
  );
}
