import { Link } from './link';

type MissingScreenProps = {
  message: string;
  returnTo: string;
  returnLabel?: string;
};

/** 'Report Submission is not found' and its siblings: the message and a way back. */
export function MissingScreen({ message, returnTo, returnLabel = 'Return' }: MissingScreenProps) {
  return (
    <div className="card stack missing-screen">
      <p className="missing-screen__message">{message}</p>
      <Link to={returnTo} className="button button--secondary">
        {returnLabel}
      </Link>
    </div>
  );
}
