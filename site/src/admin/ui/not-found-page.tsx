import { goBack } from '../router';
import { useDocumentTitle } from './document-title';

const ADMIN_ROOT = '/admin';

export function NotFoundPage() {
  useDocumentTitle(['Page not found']);
  return (
    <main className="container container--narrow">
      <div className="card stack">
        <h1 className="missing-screen__message" tabIndex={-1}>
          The page you are looking for is not found.
        </h1>
        <button type="button" className="button button--secondary" onClick={() => goBack(ADMIN_ROOT)}>
          Go Back
        </button>
      </div>
    </main>
  );
}
