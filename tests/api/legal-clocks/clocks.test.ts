import { describe, expect, test } from "bun:test";
import { addCalendarMonths, legalClocks } from "../../../api/modules/legal-clocks/clocks.ts";

/** The clocks computed from fixed times: no test here reads the machine's clock. */

const at = (iso: string) => new Date(iso);
const HOUR = 3_600_000;

describe("acknowledge within 7 days of receipt", () => {
  const receivedAt = at("2026-03-02T10:00:00Z");

  test("the deadline is exactly seven days later; an acknowledgement at that instant is met, a millisecond later is late", () => {
    const deadline = at("2026-03-09T10:00:00Z");
    expect(legalClocks({ receivedAt, acknowledgedAt: deadline, feedbackAt: null }, deadline).acknowledgeBy).toEqual(deadline);
    expect(legalClocks({ receivedAt, acknowledgedAt: deadline, feedbackAt: null }, deadline).acknowledgeState).toBe("Met");
    expect(legalClocks({ receivedAt, acknowledgedAt: new Date(deadline.getTime() + 1), feedbackAt: null }, deadline).acknowledgeState).toBe("Late");
  });

  test("not acknowledged: not yet due, due soon within two days, overdue once the deadline has passed", () => {
    const state = (now: string) => legalClocks({ receivedAt, acknowledgedAt: null, feedbackAt: null }, at(now)).acknowledgeState;
    expect(state("2026-03-03T10:00:00Z")).toBe("Pending");
    expect(state("2026-03-07T09:59:59Z")).toBe("Pending");
    expect(state("2026-03-07T10:00:00Z")).toBe("DueSoon");
    expect(state("2026-03-09T10:00:00Z")).toBe("DueSoon");
    expect(state("2026-03-09T10:00:00.001Z")).toBe("Overdue");
  });

  test("a time change in between does not move it: the days are counted in UTC", () => {
    // Europe changes to summer time on 29 March 2026; the deadline stays 7 × 24 hours on.
    const clocks = legalClocks({ receivedAt: at("2026-03-26T23:30:00Z"), acknowledgedAt: null, feedbackAt: null }, at("2026-03-27T00:00:00Z"));
    expect(clocks.acknowledgeBy.getTime() - at("2026-03-26T23:30:00Z").getTime()).toBe(7 * 24 * HOUR);
  });
});

describe("feedback within 3 calendar months", () => {
  test("from the acknowledgement, same day of the month", () => {
    const clocks = legalClocks({ receivedAt: at("2026-01-10T08:00:00Z"), acknowledgedAt: at("2026-01-12T15:30:00Z"), feedbackAt: null }, at("2026-01-13T00:00:00Z"));
    expect(clocks.feedbackBy).toEqual(at("2026-04-12T15:30:00Z"));
    expect(clocks.feedbackState).toBe("Pending");
  });

  test("without an acknowledgement, from the end of the seven days", () => {
    const clocks = legalClocks({ receivedAt: at("2026-01-10T08:00:00Z"), acknowledgedAt: null, feedbackAt: null }, at("2026-01-11T00:00:00Z"));
    expect(clocks.feedbackBy).toEqual(at("2026-04-17T08:00:00Z"));
  });

  test("a day the month lacks falls back to its last day: 30 November gives 28 February, or 29 in a leap year", () => {
    expect(addCalendarMonths(at("2026-11-30T12:00:00Z"), 3)).toEqual(at("2027-02-28T12:00:00Z"));
    expect(addCalendarMonths(at("2027-11-30T12:00:00Z"), 3)).toEqual(at("2028-02-29T12:00:00Z"));
    expect(addCalendarMonths(at("2026-05-31T00:00:00Z"), 3)).toEqual(at("2026-08-31T00:00:00Z"));
    expect(addCalendarMonths(at("2026-03-31T00:00:00Z"), 3)).toEqual(at("2026-06-30T00:00:00Z"));
    expect(addCalendarMonths(at("2026-10-15T00:00:00Z"), 3)).toEqual(at("2027-01-15T00:00:00Z"));
  });

  test("due soon within 14 days; met, late or overdue against the deadline", () => {
    const times = { receivedAt: at("2026-01-10T08:00:00Z"), acknowledgedAt: at("2026-01-12T00:00:00Z") };
    const state = (now: string, feedbackAt: string | null = null) => legalClocks({ ...times, feedbackAt: feedbackAt ? at(feedbackAt) : null }, at(now)).feedbackState;
    expect(state("2026-03-28T23:59:59Z")).toBe("Pending");
    expect(state("2026-03-29T00:00:00Z")).toBe("DueSoon");
    expect(state("2026-04-12T00:00:01Z")).toBe("Overdue");
    expect(state("2026-05-01T00:00:00Z", "2026-04-12T00:00:00Z")).toBe("Met");
    expect(state("2026-05-01T00:00:00Z", "2026-04-12T00:00:01Z")).toBe("Late");
  });
});
