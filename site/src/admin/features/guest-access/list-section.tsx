import type { ReactNode } from 'react';

type ListSectionProps = {
  label: string;
  fetching: boolean;
  /** undefined until the first answer. */
  count: number | undefined;
  /** 'No {plural} found' (spec §8). */
  plural: string;
  children: ReactNode;
};

/** A list card of the Guest Access screens: loading, the spec's empty text, or the table. */
export function ListSection({ label, fetching, count, plural, children }: ListSectionProps) {
  return (
    <section className="card card--flush" aria-busy={fetching} aria-label={label}>
      {count === undefined ? (
        <p className="muted card__body">{fetching ? 'Loading…' : ''}</p>
      ) : count === 0 ? (
        <p className="muted card__body">{`No ${plural} found`}</p>
      ) : (
        <div className="table-scroll">{children}</div>
      )}
    </section>
  );
}
