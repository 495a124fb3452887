import { expect, test } from "bun:test";
import { HashingBusyError, hashPassword, verifyPassword } from "../../../api/lib/passwords.ts";
import { hashForParty } from "../../../api/modules/abuse/guard.ts";

/** Settles every promise; returns how many were refused because hashing was full. */
async function refusedCount(attempts: Promise<unknown>[]): Promise<number> {
  const settled = await Promise.allSettled(attempts);
  return settled.filter((result) => result.status === "rejected" && result.reason instanceof HashingBusyError).length;
}

test("an unpaid flood fills only its own queue: a paid attempt arriving behind it is still heard", async () => {
  const stored = await hashPassword("the-right-password-1");
  const flood = refusedCount(Array.from({ length: 300 }, () => verifyPassword(stored, "a-guess-1", "open")));
  const paid = verifyPassword(stored, "the-right-password-1", "trusted");
  expect(await paid).toBe(true);
  expect(await flood).toBeGreaterThan(250);
});

test("one session hashing over and over holds at most one place in the paid queue", async () => {
  const stored = await hashPassword("the-right-password-1");
  const repeats = refusedCount(Array.from({ length: 300 }, () => hashForParty("one-session", (lane) => verifyPassword(stored, "a-guess-1", lane))));
  const paid = verifyPassword(stored, "the-right-password-1", "trusted");
  expect(await paid).toBe(true);
  expect(await repeats).toBeGreaterThan(250);
});
