/**
 * The benchmark's one output: a list of rows printed as an aligned table. New figures are added
 * by pushing another row, so every measurement reports in the same shape.
 */
export interface Row {
  name: string;
  /** Already formatted, so each figure chooses its own precision. */
  value: string;
  unit: string;
  note?: string;
  /** The goal the figure is held to ("≤ 25 ms"), and the figure's ratio to it (goals.ts). */
  goal?: string;
  ofGoal?: string;
}

/** Whole numbers with thousands separators: request rates are easier to compare that way. */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString("en-GB");
}

/** Milliseconds with precision that suits their size (0.42 ms, 12.3 ms, 850 ms). */
export function formatMs(value: number): string {
  if (value < 10) return value.toFixed(2);
  if (value < 100) return value.toFixed(1);
  return Math.round(value).toString();
}

/** Two decimals, or three below 0.1 so a small ratio does not round to "0.01×" for both 0.006 and 0.014. */
export function formatRatio(value: number): string {
  return `${value.toFixed(value < 0.1 ? 3 : 2)}×`;
}

/** A figure that could not be measured still gets its row, so the table always has the same shape. */
export function failedRow(name: string, unit: string, error: unknown): Row {
  const message = error instanceof Error ? error.message : String(error);
  return { name, value: "—", unit, note: `not measured: ${message.split("\n")[0]}` };
}

/** Renders rows with the value column right-aligned so magnitudes line up. */
export function renderTable(rows: Row[]): string {
  const headings = { name: "Figure", value: "Value", unit: "Unit", goal: "Goal", ofGoal: "Of goal", note: "Note" };
  const width = (pick: (row: Row | typeof headings) => string) =>
    Math.max(...[headings, ...rows].map((row) => [...pick(row)].length));
  const nameWidth = width((row) => row.name);
  const valueWidth = width((row) => row.value);
  const unitWidth = width((row) => row.unit);
  const goalWidth = width((row) => row.goal ?? "");
  const ofGoalWidth = width((row) => row.ofGoal ?? "");
  const line = (row: Row | typeof headings) =>
    [
      padEnd(row.name, nameWidth),
      padStart(row.value, valueWidth),
      padEnd(row.unit, unitWidth),
      padEnd(row.goal ?? "", goalWidth),
      padEnd(row.ofGoal ?? "", ofGoalWidth),
      row.note ?? "",
    ].join("  ").trimEnd();
  const rule = "-".repeat(Math.max(...[headings, ...rows].map((row) => line(row).length)));
  return [line(headings), rule, ...rows.map(line)].join("\n");
}

// Spread into code points so "×" and "—" count as one column each.
function padEnd(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - [...text].length));
}

function padStart(text: string, width: number): string {
  return " ".repeat(Math.max(0, width - [...text].length)) + text;
}
