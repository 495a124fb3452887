import { getOperationAST } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { Ctx } from "../context.ts";

/**
 * After a staff member's mutation, their cached `viewer` rows on this instance end before the answer
 * leaves, so the console never reads its own edit back stale. Other instances, and other people's
 * changes, are covered by the database's change events (users/viewer-cache.ts); those arrive within
 * milliseconds, this covers the request that follows at once.
 */
export function ownChangesEndViewerCopies(): Plugin<Ctx> {
  return {
    onExecute: ({ args }) => {
      if (getOperationAST(args.document, args.operationName)?.operation !== "mutation") return;
      const ctx = args.contextValue as Ctx;
      const actor = ctx.actor;
      if (actor.kind !== "staff" && actor.kind !== "two-factor-pending") return;
      return { onExecuteDone: () => ctx.services.viewerCache.forgetUser(actor.userId) };
    },
  };
}
