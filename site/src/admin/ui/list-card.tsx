import type { ReactNode } from 'react';

type ListCardProps<T> = {
  /** Names the region for screen readers: 'Tags', 'Subscribers'. */
  label: string;
  fetching: boolean;
  /** Undefined until the first answer arrives. */
  rows: readonly T[] | undefined;
  /** 'No tags found' and the like. */
  empty: string;
  /** The table's head and body, given rows to show. */
  children: (rows: readonly T[]) => ReactNode;
};

/** A list's card: loading, the empty sentence, or the table that reads as cards on narrow screens. */
export function ListCard<T>({ label, fetching, rows, empty, children }: ListCardProps<T>) {
  return (
    <section className="card card--flush" aria-busy={fetching} aria-label={label}>
      {rows === undefined ? (
        <p className="muted card__body">{fetching ? 'Loading…' : ''}</p>
      ) : rows.length === 0 ? (
        <p className="muted card__body">{empty}</p>
      ) : (
        <div className="table-scroll">
          <table className="table table--cards">{children(rows)}</table>
        </div>
      )}
    </section>
  );
}
