import { REDACTION_MARKER } from '../../../api/shared/redaction';
import './redacted-text.css';

/**
 * Text as stored, with each redaction marker set apart (decision 053): framed and in italics, not
 * by colour alone, and read by screen readers as the marker's own words.
 */
export function RedactedText({ text }: { text: string }) {
  if (!text.includes(REDACTION_MARKER)) return <>{text}</>;
  const parts = text.split(REDACTION_MARKER);
  return (
    <>
      {parts.map((part, index) => (
        <span key={index}>
          {part}
          {index < parts.length - 1 && <span className="redacted">{REDACTION_MARKER}</span>}
        </span>
      ))}
    </>
  );
}
