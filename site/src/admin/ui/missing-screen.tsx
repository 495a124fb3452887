import { useDocumentTitle } from './document-title';
import { Link } from './link';

type MissingScreenProps = {
  message: string;
  returnTo: string;
  returnLabel?: string;
};

/** 'Report Submission is not found' and its siblings: the message and a way back. */
export function MissingScreen({ message, returnTo, returnLabel = 'Return' }: MissingScreenProps) {
  useDocumentTitle([message]);
  return (
    <div className="card stack missing-screen">
      <h1 className="missing-screen__message" tabIndex={-1}>
        {message}
      </h1>
      <Link to={returnTo} className="button button--secondary">
        {returnLabel}
      </Link>
    </div>
  );
}
