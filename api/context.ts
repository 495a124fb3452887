import type { Config } from "./config.ts";
import type { Database, DatabaseHandle } from "../db/client.ts";
import type { RoleName } from "./shared/enums.ts";
import type { Permission } from "./shared/permissions.ts";
import type { PubSub } from "./lib/pubsub.ts";
import type { Invalidator } from "./lib/invalidation.ts";
import type { SessionCache } from "./lib/session-cache.ts";
import type { OrganisationCache } from "./modules/organisations/organisation-cache.ts";
import type { ReporterSessionCache } from "./modules/reporting/reporter-session-cache.ts";
import type { ViewerCache } from "./modules/users/viewer-cache.ts";
import type { DraftSnapshots } from "./modules/reporting/draft-snapshots.ts";
import type { BlobStore } from "./lib/blob-store.ts";
import type { Mailer } from "./lib/mailer.ts";
import type { PublicOrganisation } from "./modules/organisations/public.ts";
import type { Translator } from "./modules/translation/translator.ts";
import type { KeyRing } from "./lib/key-ring.ts";

export interface StaffActor {
  kind: "staff";
  userId: string;
  email: string;
  role: RoleName;
  /** Null for super admins. */
  organisationId: string | null;
  permissions: ReadonlySet<Permission>;
  sessionTokenHash: string;
}

/**
 * A staff session that has the password (or magic link) but still owes its two-factor step: a
 * passcode, or the setup of two-factor authentication turned on for the account. It reaches
 * nothing a staff actor reaches; only the two-factor calls and its own viewer accept it
 * (docs/decisions/030-two-factor-and-magic-link.md).
 */
export interface TwoFactorPendingActor {
  kind: "two-factor-pending";
  userId: string;
  email: string;
  role: RoleName;
  organisationId: string | null;
  /** True when the account has a confirmed authenticator (a passcode is owed); false while setup is owed. */
  twoFactorSet: boolean;
  sessionTokenHash: string;
}

/** An anonymous reporter holding a report session: reaches one organisation and at most one submission. */
export interface ReporterActor {
  kind: "reporter";
  organisationId: string;
  submissionId: string | null;
  /** Password-protected forms this session has unlocked. */
  unlockedFormIds: string[];
  sessionTokenHash: string;
}

export type Actor = StaffActor | TwoFactorPendingActor | ReporterActor | { kind: "anonymous" } | { kind: "system" };

/** A staff session, whether or not it has passed its two-factor step. */
export type SignedInActor = StaffActor | TwoFactorPendingActor;

/** The organisation a request's host names ({slug}.{APP_DOMAIN}), if any. */
export type HostOrganisation = PublicOrganisation;

export type HostKind = "organisation" | "report-login" | "app";

/** Long-lived things every request can reach. */
export interface Services {
  config: Config;
  database: DatabaseHandle;
  pubsub: PubSub;
  /** Ends cached copies on every instance (logout, password change, account changes). */
  invalidator: Invalidator;
  sessionCache: SessionCache;
  /** The `viewer` field's rows, until their user changes (users/viewer-cache.ts). */
  viewerCache: ViewerCache;
  /** Active organisations by slug, for every request on an organisation's host (decision 027). */
  organisationCache: OrganisationCache;
  reporterSessionCache: ReporterSessionCache;
  /** Drafts as this instance's last write of them left them (decision 028). */
  draftSnapshots: DraftSnapshots;
  blobs: BlobStore;
  mailer: Mailer;
  /** Machine translation of forms; null when no provider is configured. */
  translator: Translator | null;
  /** The organisations' data keys: seals and opens reporters' data at rest (decision 049). */
  keyRing: KeyRing;
}

/** Cookies a GraphQL resolver wants set on the HTTP response (reporter sessions opened by a mutation). */
export interface ResponseCookies {
  set(name: string, value: string, maxAgeSeconds: number): void;
  clear(name: string): void;
}

export interface Ctx {
  db: Database;
  actor: Actor;
  host: { kind: HostKind; organisation: HostOrganisation | null };
  services: Services;
  cookies: ResponseCookies;
}

export const SYSTEM_ACTOR: Actor = { kind: "system" };
