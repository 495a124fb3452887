import { boolean, index, snakeCase, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { archiving, createdAt, id, updatedAt } from "./columns.ts";
import { inviteStatus, inviteType } from "./enums.ts";
import { organisations, roles, users } from "./identity.ts";

export const onboardInvites = snakeCase.table(
  "onboard_invites",
  {
    id: id(),
    organisationId: uuid()
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    roleId: uuid()
      .notNull()
      .references(() => roles.id),
    type: inviteType().notNull().default("Member"),
    status: inviteStatus().notNull().default("Invited"),
    email: text().notNull(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    /** SHA-256 of the token mailed in the invite link. */
    tokenHash: text().notNull(),
    invitedByUserId: uuid().references(() => users.id, { onDelete: "set null" }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ...archiving(),
  },
  (t) => [uniqueIndex().on(t.tokenHash), index().on(t.organisationId, t.archived, t.createdAt)],
);

/** Someone part-way through sign-up (a new organisation, or an invited member). */
export const prospects = snakeCase.table(
  "prospects",
  {
    id: id(),
    type: inviteType().notNull(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    email: text().notNull(),
    /** Optional (spec document 1 §7, onboard_start): becomes the user's username. */
    username: text(),
    organisationName: text(),
    organisationABN: text(),
    passwordHash: text(),
    inviteId: uuid().references(() => onboardInvites.id, { onDelete: "set null" }),
    productPlanId: text(),
    completed: boolean().notNull().default(false),
    /** SHA-256 of the code mailed to confirm the address; finishing spends it (docs/decisions/036). */
    confirmationHash: text(),
    confirmationExpiresAt: timestamp({ withTimezone: true }),
    /** SHA-256 of the secret in the starting browser's cookie: that browser may change this onboarding. */
    browserHash: text(),
    /** For an invite to a single-sign-on organisation: the Microsoft identity (issuer and subject) that proved the invite's address. */
    ssoIdentity: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("prospects_email_lower_idx").on(sql`lower(${t.email})`), uniqueIndex().on(t.confirmationHash), index().on(t.browserHash)],
);

/** The organisation's email subscriber (one per organisation), told of new reports. */
export const organisationEmailSubscribers = snakeCase.table(
  "organisation_email_subscribers",
  {
    id: id(),
    organisationId: uuid()
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    firstName: text().notNull(),
    lastName: text().notNull(),
    email: text().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex().on(t.organisationId)],
);
