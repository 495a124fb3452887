import { sql } from "drizzle-orm";
import { type AnyPgColumn, bigint, boolean, index, integer, primaryKey, smallint, snakeCase, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { archiving, createdAt, id, updatedAt } from "./columns.ts";
import { authTokenPurpose, fontFamily, intervalUnit, roleName } from "./enums.ts";
import { blobs } from "./blobs.ts";

export const organisations = snakeCase.table(
  "organisations",
  {
    id: id(),
    name: text().notNull(),
    slug: text().notNull(),
    loginCode: text(),
    abn: text().notNull().default(""),
    logoBlobId: uuid().references((): AnyPgColumn => blobs.id, { onDelete: "set null" }),
    logoPaddingPixels: smallint().notNull().default(10),
    logoWidthPixels: smallint().notNull().default(50),
    fontFamily: fontFamily().notNull().default("Helvetica Neue"),
    staleMessageIntervalNumber: integer().notNull().default(7),
    staleMessageIntervalUnit: intervalUnit().notNull().default("Day"),
    openSeatNumber: integer().notNull().default(10),
    generalEnquiryEnabled: boolean().notNull().default(false),
    generalEnquiryLabel: text().notNull().default("Ask a Question"),
    generalEnquiryWelcomeMessageContent: text().notNull().default(""),
    allowGeneralEnquiryChatFileUploads: boolean().notNull().default(false),
    portalWelcomeMessageEnabled: boolean().notNull().default(false),
    portalWelcomeMessageContent: text().notNull().default(""),
    showLogoOnReportForms: boolean().notNull().default(true),
    enableEmailAuth2FA: boolean().notNull().default(false),
    enableSSO: boolean().notNull().default(false),
    enableFormTranslations: boolean().notNull().default(false),
    /** The language the organisation writes its forms in (a BCP 47 code): what translations start from. */
    formLanguage: text().notNull().default("en"),
    /** Acknowledge within 7 days, feedback within 3 months (EU Directive 2019/1937 Art. 9; decision 050). */
    legalClocksEnabled: boolean().notNull().default(true),
    /** Closed reports are deleted this many calendar months after closing; null is off (decision 052). */
    retentionMonths: integer(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ...archiving(),
  },
  (t) => [uniqueIndex().on(t.slug), index().on(t.archived, t.name)],
);

/** The five roles; their permissions come from the one map in api/shared/permissions.ts. */
export const roles = snakeCase.table(
  "roles",
  {
    id: id(),
    name: roleName().notNull(),
    rank: smallint().notNull(),
    label: text().notNull(),
  },
  (t) => [uniqueIndex().on(t.name)],
);

export const users = snakeCase.table(
  "users",
  {
    id: id(),
    email: text().notNull(),
    username: text(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    /** Argon2id PHC string; null for single-sign-on accounts. */
    passwordHash: text(),
    roleId: uuid()
      .notNull()
      .references(() => roles.id),
    /** Null only for super admins. */
    organisationId: uuid().references(() => organisations.id, { onDelete: "cascade" }),
    avatarBlobId: uuid().references((): AnyPgColumn => blobs.id, { onDelete: "set null" }),
    verified: boolean().notNull().default(false),
    suspended: boolean().notNull().default(false),
    isSSO: boolean().notNull().default(false),
    /**
     * The single-sign-on identity this account is bound to: the ID token's issuer and subject
     * (docs/decisions/031-single-sign-on.md). Set at the first sign-in; later ones must match it.
     */
    ssoIdentity: text(),
    twoFactorSecret: text(),
    twoFactorAuthenticationActivated: boolean().notNull().default(false),
    twoFactorAuthenticationIsSet: boolean().notNull().default(false),
    recoveryCodeHash: text(),
    /** The last TOTP time step accepted, so a passcode cannot be used twice (docs/decisions/030). */
    twoFactorLastStep: bigint({ mode: "number" }),
    failedLoginCount: integer().notNull().default(0),
    lastFailedLoginAt: timestamp({ withTimezone: true }),
    lastLoginAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_lower_idx").on(sql`lower(${t.email})`), index().on(t.organisationId, t.lastName, t.firstName), index().on(t.roleId), uniqueIndex("users_sso_identity_idx").on(t.ssoIdentity)],
);

/** Staff sessions. The cookie holds the token; only its SHA-256 is stored. */
export const sessions = snakeCase.table(
  "sessions",
  {
    tokenHash: text().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Organisation a super admin is working inside, if any. */
    actingOrganisationId: uuid().references(() => organisations.id, { onDelete: "set null" }),
    twoFactorPassed: boolean().notNull().default(false),
    /** Wrong passcodes or recovery codes given by this session; too many end it (docs/decisions/030). */
    twoFactorFailures: smallint().notNull().default(0),
    createdAt: createdAt(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index().on(t.userId), index().on(t.expiresAt)],
);

/** Single-use tokens mailed to staff (verification, password reset, magic link); stored hashed. */
export const authTokens = snakeCase.table(
  "auth_tokens",
  {
    tokenHash: text().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: authTokenPurpose().notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index().on(t.userId, t.purpose)],
);

/** Guest members admitted to an organisation other than their own. */
export const guestMemberships = snakeCase.table(
  "guest_memberships",
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    organisationId: uuid()
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    ...archiving(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.organisationId] }), index().on(t.organisationId)],
);
