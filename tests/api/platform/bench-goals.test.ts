import { describe, expect, test } from "bun:test";
import { withGoal } from "../../../scripts/bench/goals.ts";
import { renderTable, type Row } from "../../../scripts/bench/table.ts";

/** `bun run bench` shows each figure beside its goal, and how far it is from it, without failing on either. */
describe("bench goals", () => {
  test("a rate held to a floor reads as met only at or above it", () => {
    expect(withGoal({ name: "  viewer vs raw", value: "0.017×", unit: "of raw" })).toMatchObject({ goal: "≥ 0.1×", ofGoal: "0.17× missed" });
    expect(withGoal({ name: "Reports completed (Postgres)", value: "1,250", unit: "reports/s" })).toMatchObject({ goal: "≥ 250 /s", ofGoal: "5.00× met" });
  });

  test("a latency or a size held to a ceiling reads as met only at or below it", () => {
    expect(withGoal({ name: "Report list, 100,000 reports, p99 (Postgres)", value: "4800", unit: "ms" })).toMatchObject({ goal: "≤ 25 ms", ofGoal: "192.00× missed" });
    expect(withGoal({ name: "JS shipped, admin console", value: "127.7", unit: "KB gzip" })).toMatchObject({ goal: "≤ 170 KB", ofGoal: "0.75× met" });
    expect(withGoal({ name: "Start-to-ready, existing PGlite dir", value: "2,000", unit: "ms" })).toMatchObject({ ofGoal: "1.00× met" });
  });

  test("a figure that was not measured keeps its goal and has no ratio; a goal of none is met or missed", () => {
    expect(withGoal({ name: "Chat delivery, 1,000 sockets, p99 (Postgres)", value: "—", unit: "ms", note: "not measured: x" })).toMatchObject({ goal: "≤ 100 ms", ofGoal: "—" });
    expect(withGoal({ name: "Other-origin requests, report form page", value: "0", unit: "requests" }).ofGoal).toBe("met");
    expect(withGoal({ name: "Other-origin requests, organisation page", value: "2", unit: "requests" }).ofGoal).toBe("missed");
  });

  test("a row without a goal is left as it is, and the table has a goal column for those that have one", () => {
    const rows: Row[] = [{ name: "Raw Bun.serve hello (baseline)", value: "55,813", unit: "req/s" }, { name: "JS shipped, organisation page", value: "80.1", unit: "KB gzip" }].map(withGoal);
    expect(rows[0]).toEqual({ name: "Raw Bun.serve hello (baseline)", value: "55,813", unit: "req/s" });
    const table = renderTable(rows).split("\n");
    expect(table[0]).toMatch(/^Figure\s+Value\s+Unit\s+Goal\s+Of goal\s+Note$/);
    expect(table[3]).toContain("≤ 50 KB");
    expect(table[3]).toContain("1.60× missed");
  });
});
