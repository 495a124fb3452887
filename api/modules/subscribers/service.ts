import { asc, count, eq, type SQL } from "drizzle-orm";
import * as v from "valibot";
import type { Database } from "../../../db/client.ts";
import { isUniqueViolation } from "../../../db/results.ts";
import { organisationEmailSubscribers } from "../../../db/schema/index.ts";
import type { Ctx, StaffActor } from "../../context.ts";
import { UserError, badInput } from "../../lib/errors.ts";
import { isUuid, requireUuid } from "../../lib/ids.ts";
import { parseWith } from "../../lib/validation.ts";
import { canReachOrganisation, mutate, organisationScope, requirePermission } from "../access/policy.ts";
import { recordActivity } from "../audit/service.ts";
import { lockOrganisation } from "../invites/rules.ts";
import { ORGANISATION_NOT_FOUND } from "../organisations/service.ts";
import { EmailText, personName } from "../profile/inputs.ts";
import { pageLimit, pageOffset } from "../users/service.ts";

/**
 * The organisation's email subscriber (spec §2 Subscribers, §9: one per organisation), the address
 * the new-report notice goes to (notifications/recipients.ts). Decision 038.
 */

export const SUBSCRIBER_NOT_FOUND = "Subscriber is not found";
export const SUBSCRIBER_EXISTS = "This organisation already has a subscriber. Delete it to add another.";

export interface SubscriberView {
  id: string;
  organisationId: string;
  firstName: string;
  lastName: string;
  email: string;
  createdAt: Date;
  updatedAt: Date;
}

// A missing field is an empty one, so it is answered 'Required' like a blank one (spec §5).
const SubscriberInput = v.object({
  firstName: v.optional(personName, ""),
  lastName: v.optional(personName, ""),
  email: v.optional(EmailText, ""),
});

export interface SubscriberListArgs {
  organisationID?: string | null;
  limit?: number | null;
  offset?: number | null;
}

/** organisationEmailSubscribers: the actor's organisation's (a super admin names one, or sees every organisation's). */
export async function listSubscribers(ctx: Ctx, args: SubscriberListArgs): Promise<{ total: number; list: SubscriberView[] }> {
  const actor = requirePermission(ctx, "OrganisationEmailSubscriberList");
  const requested = args.organisationID ? requireUuid(args.organisationID, ORGANISATION_NOT_FOUND) : null;
  const organisationId = organisationScope(actor, requested, ORGANISATION_NOT_FOUND);
  const where: SQL | undefined = organisationId ? eq(organisationEmailSubscribers.organisationId, organisationId) : undefined;
  const [total] = await ctx.db.select({ n: count() }).from(organisationEmailSubscribers).where(where);
  const list = await ctx.db
    .select()
    .from(organisationEmailSubscribers)
    .where(where)
    .orderBy(asc(organisationEmailSubscribers.createdAt), asc(organisationEmailSubscribers.id))
    .limit(pageLimit(args.limit))
    .offset(pageOffset(args.offset));
  return { total: total?.n ?? 0, list };
}

const audit = (tx: Database, actor: StaffActor, subscriber: SubscriberView, action: string) =>
  // The audit log's object types (spec §3) have no Subscriber: the entry is the organisation's, naming the subscriber.
  recordActivity(tx, actor, {
    organisationId: subscriber.organisationId,
    objectType: "Organisation",
    objectId: subscriber.organisationId,
    action,
    metadata: { subscriber_id: subscriber.id, first_name: subscriber.firstName, last_name: subscriber.lastName, email: subscriber.email },
  });

/**
 * organisationEmailSubscriberCreate: only while the organisation has none. The organisation row is
 * locked, so a second create waits and then sees the first; the unique index answers the same
 * message should anything else slip past.
 */
export async function createSubscriber(ctx: Ctx, rawOrganisationID: unknown, rawInput: unknown): Promise<SubscriberView> {
  try {
    return await mutate(ctx, "OrganisationEmailSubscriberCreate", async (tx, actor) => {
      const requested = rawOrganisationID ? requireUuid(rawOrganisationID, ORGANISATION_NOT_FOUND) : null;
      const organisationId = organisationScope(actor, requested, ORGANISATION_NOT_FOUND);
      // A super admin works inside one organisation to add its subscriber.
      if (!organisationId) throw badInput("Required", [{ field: "organisationID", message: "Required" }]);
      const organisation = await lockOrganisation(tx, organisationId);
      const input = parseWith(SubscriberInput, rawInput ?? {});
      const [existing] = await tx.select({ id: organisationEmailSubscribers.id }).from(organisationEmailSubscribers).where(eq(organisationEmailSubscribers.organisationId, organisation.id));
      if (existing) throw new UserError("CONFLICT", SUBSCRIBER_EXISTS);
      const [created] = await tx.insert(organisationEmailSubscribers).values({ organisationId: organisation.id, ...input }).returning();
      await audit(tx, actor, created!, "CreateEmailSubscriber");
      return created!;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new UserError("CONFLICT", SUBSCRIBER_EXISTS);
    throw error;
  }
}

/** organisationEmailSubscriberDelete: from then on new reports mail nobody until another is added. */
export async function deleteSubscriber(ctx: Ctx, rawId: unknown): Promise<SubscriberView> {
  return mutate(ctx, "OrganisationEmailSubscriberDelete", async (tx, actor) => {
    const [subscriber] = isUuid(rawId)
      ? await tx.select().from(organisationEmailSubscribers).where(eq(organisationEmailSubscribers.id, rawId.toLowerCase())).for("update")
      : [];
    if (!subscriber || !canReachOrganisation(actor, subscriber.organisationId)) throw new UserError("NOT_FOUND", SUBSCRIBER_NOT_FOUND);
    await tx.delete(organisationEmailSubscribers).where(eq(organisationEmailSubscribers.id, subscriber.id));
    await audit(tx, actor, subscriber, "DeleteEmailSubscriber");
    return subscriber;
  });
}
