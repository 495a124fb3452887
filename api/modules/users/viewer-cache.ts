import { holdingAny, InvalidatedCache } from "../../lib/invalidated-cache.ts";
import type { Invalidator } from "../../lib/invalidation.ts";

/**
 * The signed-in user's row as the `viewer` field last read it, per selection, so the console's most
 * frequent question costs no database query (decision 005's request-path section; issue 10).
 *
 * A copy ends when any instance hears that its user changed: a trigger on `users` announces every
 * update and deletion at commit, whoever made it (db/migrations/*_user_change_events), and an
 * organisation's own events end the copies that hold it. Besides, a staff member's own change ends
 * their copies on this instance before the response to it leaves, so nobody ever reads their own
 * edit back stale. Authorisation never reads these copies: it reads the session (session-cache.ts).
 */
const MAX_ENTRIES = 5_000;
/** A backstop only: every change made through the database is announced. */
const MAX_AGE_MS = 60_000;

interface CachedViewerRow {
  userId: string;
  organisationId: string | null;
  row: Record<string, unknown>;
}

export class ViewerCache extends InvalidatedCache<CachedViewerRow> {
  constructor(invalidator: Invalidator, options: { now?: () => number } = {}) {
    super(invalidator, {
      maxEntries: MAX_ENTRIES,
      maxAgeMs: MAX_AGE_MS,
      endsCopies: (event) => {
        const byUser = holdingAny(event.userIds, (copy: CachedViewerRow) => copy.userId);
        const byOrganisation = holdingAny(event.organisationIds, (copy: CachedViewerRow) => copy.organisationId);
        if (!byUser || !byOrganisation) return byUser ?? byOrganisation;
        return (copy) => byUser(copy) || byOrganisation(copy);
      },
      ...options,
    });
  }

  /** The copy of `userId`'s row for one selection (`shape` from prepared-selections.ts). */
  read(userId: string, shape: string): Record<string, unknown> | undefined {
    return this.get(keyOf(userId, shape))?.row;
  }

  /** `organisationId` is the user's, from their session: the row may not hold it for this selection. */
  keep(userId: string, organisationId: string | null, shape: string, row: Record<string, unknown>, markedAt: number): void {
    // Requests share the copy, so nothing may change it: a write to it would throw, not leak.
    this.store(keyOf(userId, shape), { userId, organisationId, row: deepFreeze(structuredClone(row)) }, markedAt);
  }

  /** Ends every copy of the user here, at once (their own change, before its response is sent). */
  forgetUser(userId: string): void {
    this.forgetWhere((copy) => copy.userId === userId);
  }
}

function keyOf(userId: string, shape: string): string {
  return `${userId}\u0000${shape}`;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
