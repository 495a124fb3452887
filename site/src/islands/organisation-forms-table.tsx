import type { MouseEvent } from 'react';
import type { ReportFormSummary } from './organisation-data';

type OrganisationFormsTableProps = {
  forms: readonly ReportFormSummary[];
};

function reportFormUrl(id: string): string {
  return `/report/${encodeURIComponent(id)}`;
}

// Rows are clickable for pointer users; the 'Make Report' link is the
// keyboard and screen-reader path to the same place.
export function OrganisationFormsTable({ forms }: OrganisationFormsTableProps) {
  if (forms.length === 0) {
    return <p className="muted">No forms found</p>;
  }

  const openRow = (event: MouseEvent<HTMLTableRowElement>, id: string) => {
    if (event.target instanceof Element && event.target.closest('a')) return;
    window.location.assign(reportFormUrl(id));
  };

  return (
    <table className="table forms-table">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col" className="table__actions">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {forms.map((form) => (
          <tr key={form.id} className="forms-table__row" onClick={(event) => openRow(event, form.id)}>
            <td>{form.name}</td>
            <td className="table__actions">
              <a className="button button--small" href={reportFormUrl(form.id)}>
                Make Report<span className="visually-hidden">: {form.name}</span>
              </a>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
