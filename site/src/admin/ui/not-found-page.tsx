import { goBack } from '../router';

const ADMIN_ROOT = '/admin';

export function NotFoundPage() {
  return (
    <main className="container container--narrow">
      <div className="card stack">
        <p>The page you are looking for is not found.</p>
        <button type="button" className="button button--secondary" onClick={() => goBack(ADMIN_ROOT)}>
          Go Back
        </button>
      </div>
    </main>
  );
}
