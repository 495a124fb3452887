import { formTemplateListPath, reportFormListPath } from '../../paths';
import { useDocumentTitle } from '../../ui/document-title';
import { Link } from '../../ui/link';
import type { Viewer } from '../../viewer';

type FormBuilderPageProps = {
  viewer: Viewer;
  kind: 'form' | 'template';
  organisationID?: string;
  reportFormID?: string;
  templateID?: string;
  reportFormTemplateID?: string;
};

/** The create and edit screens' frame: the title the spec names and the way back to the list. */
export function FormBuilderPage({ kind, organisationID, reportFormID, reportFormTemplateID }: FormBuilderPageProps) {
  const editing = kind === 'form' ? reportFormID !== undefined : reportFormTemplateID !== undefined;
  const noun = kind === 'form' ? 'Report Form' : 'Form Template';
  const title = `${editing ? 'Edit' : 'Create'} A ${noun}`;
  const back = kind === 'form' ? { to: reportFormListPath(organisationID), label: 'Report Forms' } : { to: formTemplateListPath(), label: 'Form Templates' };
  useDocumentTitle([title]);
  return (
    <main className="admin-page stack">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to={back.to}>{back.label}</Link>
        <span aria-hidden="true"> / </span>
        <span>{title}</span>
      </nav>
      <h1 tabIndex={-1}>{title}</h1>
    </main>
  );
}
