type HomePageProps = {
  // null for super admins, who belong to no organisation.
  organisationName: string | null;
};

// The signed-in landing until the dashboard and organisation list are built.
import { useDocumentTitle } from '../../ui/document-title';

export function HomePage({ organisationName }: HomePageProps) {
  useDocumentTitle(['Organisations']);
  return (
    <main className="container">
      <h1 className="admin-home__text" tabIndex={-1}>
        {organisationName === null ? 'Signed in as Super Admin' : `Signed in to ${organisationName}`}
      </h1>
    </main>
  );
}
