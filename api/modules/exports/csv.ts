/**
 * CSV as RFC 4180 writes it (comma separated, CRLF line ends, fields quoted when they hold a
 * quote, a comma or a line break, quotes doubled), made safe to open in a spreadsheet.
 */

/** Excel reads a UTF-8 file as UTF-8 only when it starts with a byte order mark. */
export const CSV_BOM = "\uFEFF";

/**
 * Cells a spreadsheet would evaluate as a formula (CSV injection): report text comes from
 * anonymous reporters and tag names from staff, and `=HYPERLINK(...)` or `=cmd|...` must stay
 * text. Leading spaces do not stop some spreadsheets from evaluating, so they are looked past.
 */
const FORMULA_START = /^\s*[=+\-@]|^[\t\r]/;

/** One cell: formula-like text gets a leading single quote, then RFC 4180 quoting where needed. */
export function csvCell(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The whole file, BOM first, every line (the last included) ended by CRLF. */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return CSV_BOM + rows.map((row) => `${row.map(csvCell).join(",")}\r\n`).join("");
}
