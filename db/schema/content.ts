import { sql } from "drizzle-orm";
import { index, jsonb, snakeCase, text, uuid, boolean } from "drizzle-orm/pg-core";
import { archiving, createdAt, id, updatedAt } from "./columns.ts";
import { auditObjectType } from "./enums.ts";
import { blobs } from "./blobs.ts";
import { organisations, users } from "./identity.ts";

/** Help videos managed by super admins, seen by every staff user. */
export const resourceVideos = snakeCase.table("resource_videos", {
  id: id(),
  title: text().notNull(),
  description: text().notNull().default(""),
  videoSrc: text().notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  ...archiving(),
});

export const resourceDocuments = snakeCase.table("resource_documents", {
  id: id(),
  title: text().notNull(),
  description: text().notNull().default(""),
  blobId: uuid().references(() => blobs.id, { onDelete: "set null" }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  ...archiving(),
});

/** The audit log. Written by every mutation inside its own transaction. */
export const userActivities = snakeCase.table(
  "user_activities",
  {
    id: id(),
    organisationId: uuid().references(() => organisations.id, { onDelete: "cascade" }),
    /** Null when the system or an anonymous reporter acted. */
    userId: uuid().references(() => users.id, { onDelete: "set null" }),
    parentId: uuid(),
    isGrouped: boolean().notNull().default(false),
    objectType: auditObjectType().notNull(),
    objectId: text(),
    objectCode: text(),
    action: text().notNull(),
    metadata: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.organisationId, t.createdAt), index().on(t.objectType, t.objectId, t.createdAt), index().on(t.parentId).where(sql`${t.parentId} is not null`)],
);
