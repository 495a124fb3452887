/**
 * The goals each figure is held to, and its ratio to that goal. The bench never fails on a goal:
 * figures move ±30% between runs on a shared machine, so people judge them, not an exit code.
 *
 * A ratio is the figure divided by its goal: for "at least" goals 1.00× or more is met, for "at
 * most" goals 1.00× or less is. The Goal column says which.
 */
import { formatRatio, type Row } from "./table.ts";

interface Goal {
  /** Matches the row's name (names carry sizes such as "100,000 reports", hence patterns). */
  row: RegExp;
  kind: "at least" | "at most";
  target: number;
  unit: string;
}

const GOALS: Goal[] = [
  { row: /^ {2}viewer vs raw$/, kind: "at least", target: 0.1, unit: "×" },
  { row: /^Reports completed \(Postgres\)$/, kind: "at least", target: 250, unit: "/s" },
  { row: /^ {2}complete call, p99$/, kind: "at most", target: 50, unit: "ms" },
  { row: /^Report list, .* reports, p99 \(Postgres\)$/, kind: "at most", target: 25, unit: "ms" },
  { row: /^ {2}page 1, achieved rate$/, kind: "at least", target: 200, unit: "/s" },
  { row: /^ {2}with a search text, p99$/, kind: "at most", target: 25, unit: "ms" },
  { row: /^ {2}search, achieved rate$/, kind: "at least", target: 200, unit: "/s" },
  { row: /^JS shipped, report form page$/, kind: "at most", target: 80, unit: "KB" },
  { row: /^JS shipped, organisation page$/, kind: "at most", target: 50, unit: "KB" },
  { row: /^JS shipped, admin console$/, kind: "at most", target: 170, unit: "KB" },
  { row: /^Start-to-ready, existing PGlite dir$/, kind: "at most", target: 2000, unit: "ms" },
  { row: /^Start-to-ready, fresh PGlite dir$/, kind: "at most", target: 5000, unit: "ms" },
  // A reporter's first page in a new language waits on this; afterwards every visit reads the cache.
  { row: /^translateData, .* form, first \(Postgres\)$/, kind: "at most", target: 3000, unit: "ms" },
  { row: /^ {2}cached, p99$/, kind: "at most", target: 50, unit: "ms" },
  { row: /^Chat delivery, .* sockets, p99 \(Postgres\)$/, kind: "at most", target: 100, unit: "ms" },
  // Kept as it was when the goals were set (about 100 MiB); a growth of a tenth is worth a look.
  { row: /^Idle RSS, Postgres server$/, kind: "at most", target: 110, unit: "MiB" },
  { row: /^Other-origin requests, /, kind: "at most", target: 0, unit: "" },
];

/** "1,148" → 1148, "0.017×" → 0.017; null for "—" and anything else that is not a number. */
function figureOf(row: Row): number | null {
  const text = row.value.replace(/[,×]/g, "").trim();
  if (!/^-?\d+(\.\d+)?$/.test(text)) return null;
  return Number(text);
}

function goalText(goal: Goal): string {
  const sign = goal.kind === "at least" ? "≥" : "≤";
  const target = goal.unit === "×" ? `${goal.target}×` : `${goal.target.toLocaleString("en-GB")}${goal.unit ? ` ${goal.unit}` : ""}`;
  return `${sign} ${target}`;
}

/** The row with its goal and ratio filled in, when it has a goal. */
export function withGoal(row: Row): Row {
  const goal = GOALS.find((candidate) => candidate.row.test(row.name));
  if (!goal) return row;
  const figure = figureOf(row);
  if (figure === null) return { ...row, goal: goalText(goal), ofGoal: "—" };
  // A goal of zero (no requests to other origins) has no ratio: it is met or it is not.
  if (goal.target === 0) return { ...row, goal: goalText(goal), ofGoal: figure === 0 ? "met" : "missed" };
  const ratio = figure / goal.target;
  const met = goal.kind === "at least" ? ratio >= 1 : ratio <= 1;
  return { ...row, goal: goalText(goal), ofGoal: `${formatRatio(ratio)} ${met ? "met" : "missed"}` };
}
