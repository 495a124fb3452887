import { type AnyPgColumn, bigint, index, snakeCase, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns.ts";
import { blobPurpose } from "./enums.ts";
import { organisations } from "./identity.ts";

/**
 * Stored files. The bytes live in the blob store (local directory or S3) under storageKey;
 * this row is the only way to reach them, so every download is checked against it.
 */
export const blobs = snakeCase.table(
  "blobs",
  {
    id: id(),
    /** Null for global files such as help-resource documents. */
    organisationId: uuid().references((): AnyPgColumn => organisations.id, { onDelete: "cascade" }),
    purpose: blobPurpose().notNull(),
    storageKey: text().notNull(),
    fileName: text().notNull(),
    mimeType: text().notNull(),
    sizeBytes: bigint({ mode: "number" }).notNull(),
    sha256: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.organisationId, t.purpose)],
);
