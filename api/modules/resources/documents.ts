import { count, desc, eq } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { blobs, resourceDocuments } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { badInput, notFound, UserError } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { parseWith } from "../../lib/validation.ts";
import { RESOURCE_DOCUMENT_MAX_BYTES, RESOURCE_DOCUMENT_TOO_LARGE, RESOURCE_DOCUMENT_TYPE_REFUSED, RESOURCE_DOCUMENT_TYPES } from "../../shared/resources.ts";
import { mutate, parseOnceFound, requirePermission } from "../access/policy.ts";
import { incomingImage } from "../files/chat-image.ts";
import { checkUpload, type CheckedUpload } from "../files/checked-upload.ts";
import { removeBlobBytes, storeCheckedFile } from "../files/stored-blob.ts";
import { pageLimit, pageOffset } from "../users/service.ts";
import { auditResource, DocumentTextInput, RESOURCE_NOT_FOUND, resourceListWhere, type ResourceListArgs } from "./rules.ts";

/**
 * Help documents (spec: resourceDocuments, resourceDocumentCreate/Update/Archive/Unarchive). The file
 * goes through the product's one upload check (files/checked-upload.ts): its content must match its
 * extension and its metadata is stripped; it is stored as a platform blob (no organisation) and read
 * back only through /api/files/resource-documents/:id (files/resource-document-access.ts).
 */

export interface DocumentView {
  id: string;
  title: string;
  description: string;
  archived: boolean;
  createdAt: Date;
  updatedAt: Date;
  blob: { id: string; fileName: string; fileSizeBytes: number } | null;
}

export const resourceDocumentFileURL = (documentId: string) => `/api/files/resource-documents/${documentId}`;

const viewColumns = {
  id: resourceDocuments.id,
  title: resourceDocuments.title,
  description: resourceDocuments.description,
  archived: resourceDocuments.archived,
  createdAt: resourceDocuments.createdAt,
  updatedAt: resourceDocuments.updatedAt,
  blobId: blobs.id,
  fileName: blobs.fileName,
  fileSizeBytes: blobs.sizeBytes,
};

const selectViews = (db: Database) => db.select(viewColumns).from(resourceDocuments).leftJoin(blobs, eq(blobs.id, resourceDocuments.blobId));
type Row = Awaited<ReturnType<typeof selectViews>>[number];

const toView = ({ blobId, fileName, fileSizeBytes, ...rest }: Row): DocumentView => ({
  ...rest,
  blob: blobId && fileName !== null && fileSizeBytes !== null ? { id: blobId, fileName, fileSizeBytes } : null,
});

export async function listResourceDocuments(ctx: Ctx, args: ResourceListArgs): Promise<{ total: number; list: DocumentView[] }> {
  const where = resourceListWhere(ctx, args, resourceDocuments);
  const [total] = await ctx.db.select({ n: count() }).from(resourceDocuments).where(where);
  const rows = await selectViews(ctx.db)
    .where(where)
    .orderBy(desc(resourceDocuments.createdAt), desc(resourceDocuments.id))
    .limit(pageLimit(args.limit))
    .offset(pageOffset(args.offset));
  return { total: total?.n ?? 0, list: rows.map(toView) };
}

const documentView = async (db: Database, id: string) => toView((await selectViews(db).where(eq(resourceDocuments.id, id)))[0]!);

async function foundDocument(db: Database, rawId: unknown, forUpdate = false) {
  if (!isUuid(rawId)) throw notFound(RESOURCE_NOT_FOUND);
  const query = db.select().from(resourceDocuments).where(eq(resourceDocuments.id, rawId.toLowerCase()));
  const [document] = forUpdate ? await query.for("update") : await query;
  if (!document) throw notFound(RESOURCE_NOT_FOUND);
  return document;
}

/** The chosen file, checked and stripped; the size is refused before the bytes are read. */
async function checkedDocument(file: File): Promise<CheckedUpload> {
  if (file.size > RESOURCE_DOCUMENT_MAX_BYTES) throw badInput(RESOURCE_DOCUMENT_TOO_LARGE, [{ field: "file", message: RESOURCE_DOCUMENT_TOO_LARGE }]);
  return checkUpload(incomingImage(file), RESOURCE_DOCUMENT_TYPES, RESOURCE_DOCUMENT_TYPE_REFUSED, "trusted");
}

const fileMetadata = (file: CheckedUpload) => ({ mime_type: file.mimeType, size_bytes: file.bytes.length });

/**
 * Stores a checked file and runs `write` with its new blob id, inside the transaction that also
 * inserts the blob row; the bytes are removed again if that transaction fails.
 */
function withStoredFile<T>(ctx: Ctx, file: CheckedUpload, write: (tx: Database, blobId: string) => Promise<T>): Promise<T> {
  const checked = { purpose: "ResourceDocument" as const, organisationId: null, fileName: file.fileName, mimeType: file.mimeType, bytes: file.bytes, metadataRemoved: file.metadataRemoved };
  return storeCheckedFile(ctx, checked, (insertBlobRow) => ctx.db.transaction(async (tx) => write(tx, await insertBlobRow(tx))));
}

interface DocumentInput {
  title?: unknown;
  description?: unknown;
  file?: File | null;
}

export async function createResourceDocument(ctx: Ctx, input: DocumentInput): Promise<DocumentView> {
  const actor = requirePermission(ctx, "ResourceCreate");
  const text = parseWith(DocumentTextInput, { title: input.title, description: input.description });
  if (!(input.file instanceof File)) throw badInput("Required", [{ field: "file", message: "Required" }]);
  const file = await checkedDocument(input.file);
  const id = await withStoredFile(ctx, file, async (tx, blobId) => {
    const [document] = await tx.insert(resourceDocuments).values({ ...text, blobId }).returning();
    await auditResource(tx, actor, "ResourceDocumentCreate", document!, fileMetadata(file));
    return document!.id;
  });
  return documentView(ctx.db, id);
}

/** The file is optional on edit (spec §5): without one the document keeps its file; a new one replaces it, and the old bytes go. */
export async function updateResourceDocument(ctx: Ctx, rawId: unknown, input: DocumentInput): Promise<DocumentView> {
  const actor = requirePermission(ctx, "ResourceUpdate");
  const { text, file } = await parseOnceFound(ctx, "ResourceUpdate", (db) => foundDocument(db, rawId), async () => ({
    text: parseWith(DocumentTextInput, { title: input.title, description: input.description }),
    file: input.file instanceof File ? await checkedDocument(input.file) : null,
  }));
  let replacedStorageKey: string | null = null;
  const change = async (tx: Database, blobId: string | null) => {
    const document = await foundDocument(tx, rawId, true);
    await tx
      .update(resourceDocuments)
      .set({ ...text, ...(blobId ? { blobId } : {}), updatedAt: new Date() })
      .where(eq(resourceDocuments.id, document.id));
    if (blobId && document.blobId) {
      const [replaced] = await tx.delete(blobs).where(eq(blobs.id, document.blobId)).returning({ storageKey: blobs.storageKey });
      replacedStorageKey = replaced?.storageKey ?? null;
    }
    await auditResource(tx, actor, "ResourceDocumentUpdate", { id: document.id, title: text.title }, file ? fileMetadata(file) : {});
    return document.id;
  };
  const id = file ? await withStoredFile(ctx, file, change) : await mutate(ctx, "ResourceUpdate", (tx) => change(tx, null));
  if (replacedStorageKey) await removeBlobBytes(ctx, replacedStorageKey, "a replaced resource document");
  return documentView(ctx.db, id);
}

/** Archiving keeps the file, so unarchiving brings the document back whole. */
export async function setResourceDocumentArchived(ctx: Ctx, rawId: unknown, archived: boolean): Promise<DocumentView> {
  const id = await mutate(ctx, archived ? "ResourceArchive" : "ResourceUnarchive", async (tx, actor) => {
    const document = await foundDocument(tx, rawId, true);
    if (document.archived === archived) throw new UserError("CONFLICT", archived ? "Document is already archived." : "Document is not archived.");
    await tx
      .update(resourceDocuments)
      .set({ archived, archivedAt: archived ? new Date() : null, updatedAt: new Date() })
      .where(eq(resourceDocuments.id, document.id));
    await auditResource(tx, actor, archived ? "ResourceDocumentArchive" : "ResourceDocumentUnarchive", document, { archived });
    return document.id;
  });
  return documentView(ctx.db, id);
}
