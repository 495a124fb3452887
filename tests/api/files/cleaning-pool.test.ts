import { describe, expect, test } from "bun:test";
import { OverBudgetError } from "../../../api/modules/files/cleaning-budget.ts";
import { CleaningBusyError, cleaningPoolState, cleanInWorker, openCleaningLaneFull } from "../../../api/modules/files/cleaning-pool.ts";
import { containsText, pngWithText } from "../../fixtures/files.ts";
import { slowOfficeFile } from "./bomb-fixtures.ts";

/**
 * The cleaning pool on its own (decision 060). The slow file takes about a second of CPU; given
 * 50 ms of budget a job is ended by terminating its worker, which keeps these tests short.
 */
const longJob = (lane: "trusted" | "open") => cleanInWorker({ kind: "ooxml", bytes: slowOfficeFile() }, lane, 50);

describe("the cleaning pool", () => {
  test("a job past its CPU budget is refused as too costly and its worker terminated; the next job is cleaned by a fresh worker", async () => {
    await expect(longJob("trusted")).rejects.toBeInstanceOf(OverBudgetError);
    await expect(longJob("open")).rejects.toBeInstanceOf(OverBudgetError);
    const cleaned = await cleanInWorker({ kind: "png", bytes: pngWithText() }, "trusted");
    expect({ removed: cleaned.metadataRemoved, author: containsText(cleaned.bytes, "Jane Reporter") }).toEqual({ removed: true, author: false });
    expect(cleaningPoolState()).toEqual({ running: 0, waiting: { trusted: 0, open: 0 } });
  }, 60_000);

  test("the open lane's queue is short: when it is full an unpaid job is turned away at once, a trusted one is still queued", async () => {
    const running = longJob("trusted");
    const open = Array.from({ length: 4 }, () => longJob("open"));
    expect(openCleaningLaneFull()).toBe(true);
    await expect(longJob("open")).rejects.toBeInstanceOf(CleaningBusyError);
    const trusted = longJob("trusted");
    expect(cleaningPoolState()).toEqual({ running: 1, waiting: { trusted: 1, open: 4 } });
    const outcomes = await Promise.allSettled([running, ...open, trusted]);
    expect(outcomes.map((outcome) => outcome.status === "rejected" && outcome.reason instanceof OverBudgetError)).toEqual(Array(6).fill(true));
    expect(openCleaningLaneFull()).toBe(false);
  }, 60_000);
});
