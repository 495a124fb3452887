// The server injects per-request data into static shells by replacing the
// `null` inside `<script type="application/json" id="...">null</script>`.
// A JSON data block is never executed, so it needs no CSP hash.

export const ORGANISATION_DATA_ID = 'lantern-organisation';
export const ERROR_DATA_ID = 'lantern-error';
export const REPORT_FORM_DATA_ID = 'lantern-report-form';

// Returns undefined outside the browser (build-time render), null when the
// placeholder was left untouched, and the parsed JSON otherwise.
export function readPageData(id: string): unknown {
  if (typeof document === 'undefined') return undefined;
  const text = document.getElementById(id)?.textContent ?? 'null';
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
