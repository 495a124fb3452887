import { type AnyPgColumn, bigint, boolean, index, snakeCase, text, uuid } from "drizzle-orm/pg-core";
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
    /**
     * False when the file's type could not be cleaned of identifying metadata (legacy Office, an
     * encrypted PDF…) and was stored as uploaded; staff see it next to the attachment (decision 048).
     */
    metadataRemoved: boolean().notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.organisationId, t.purpose)],
);
