import { and, eq, inArray, ne } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { blobs, organisations, roles, sessions, users } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { UserError, badInput } from "../../lib/errors.ts";
import { requireUuid } from "../../lib/ids.ts";
import { recordActivity } from "../audit/service.ts";
import { prepareAvatarImage } from "../files/avatar-image.ts";
import { incomingImage } from "../files/chat-image.ts";
import { removeBlobBytes, storeCheckedFile } from "../files/stored-blob.ts";
import { canReachOrganisation, mutate, requirePermission } from "../access/policy.ts";
import type { OrganisationCreate } from "./inputs.ts";
import { LOGO_UPLOAD_FAILED, ORGANISATION_NOT_FOUND } from "./service.ts";
import { slugCandidates } from "./slugs.ts";

/**
 * The super admin's organisation verbs (spec §2 Organisations, §7): create, archive, unarchive, and
 * the logo upload an owner or admin may also make. Settings changes are service.ts's updateOrganisation.
 */

export async function createOrganisation(ctx: Ctx, input: OrganisationCreate) {
  return mutate(ctx, "OrganisationCreate", async (tx, actor) => {
    const row = await insertWithFreeSlug(tx, input);
    await recordActivity(tx, actor, { organisationId: row.id, objectType: "Organisation", objectId: row.id, action: "CreateOrganisation", metadata: { name: row.name } });
    return row;
  });
}

/**
 * The first free slug of the name's candidates. The insert itself decides (ON CONFLICT DO NOTHING on
 * the unique slug), so two organisations created at once with one name never collide into an error.
 */
async function insertWithFreeSlug(tx: Database, input: OrganisationCreate) {
  for (const slug of slugCandidates(input.name)) {
    const [row] = await tx.insert(organisations).values({ name: input.name, abn: input.abn, slug }).onConflictDoNothing({ target: organisations.slug }).returning();
    if (row) return row;
  }
  throw new UserError("CONFLICT", "Could not find a free web address for this organisation. Please choose another name.");
}

/**
 * Archiving closes the organisation: its public pages answer 'Organisation was not found or is
 * currently suspended.' (the public lookup reads only active organisations), its staff cannot sign in
 * (auth/login.ts), and every session they hold ends now: the rows are deleted in this transaction and
 * every instance drops its cached copies before this answers. Unarchiving opens it again; nobody is
 * signed back in.
 */
export async function setOrganisationArchived(ctx: Ctx, rawId: string, archived: boolean) {
  const { row, ended } = await mutate(ctx, archived ? "OrganisationArchive" : "OrganisationUnarchive", async (tx, actor) => {
    const id = requireUuid(rawId, ORGANISATION_NOT_FOUND);
    const [before] = await tx.select().from(organisations).where(eq(organisations.id, id)).for("update");
    if (!before) throw new UserError("NOT_FOUND", ORGANISATION_NOT_FOUND);
    const [row] = await tx
      .update(organisations)
      .set({ archived, archivedAt: archived ? new Date() : null })
      .where(eq(organisations.id, id))
      .returning();
    const staffIds = archived ? await endStaffSessions(tx, id) : [];
    await recordActivity(tx, actor, {
      organisationId: id,
      objectType: "Organisation",
      objectId: id,
      action: archived ? "Archive" : "Unarchive",
      metadata: { name: row!.name, archived },
    });
    const ended = await ctx.services.invalidator.announce(tx, { organisationIds: [id], ...(staffIds.length ? { userIds: staffIds } : {}) });
    return { row: row!, ended };
  });
  await ended();
  return row;
}

/** Deletes the sessions of the organisation's staff (super admins belong to none) and names them. */
async function endStaffSessions(tx: Database, organisationId: string): Promise<string[]> {
  const staff = await tx
    .select({ id: users.id })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(users.organisationId, organisationId), ne(roles.name, "SUPER_ADMIN")));
  const ids = staff.map((user) => user.id);
  if (ids.length) await tx.delete(sessions).where(inArray(sessions.userId, ids));
  return ids;
}

/** Spec §5 and §9: a logo is a jpg or png under 10,000,000 bytes. */
export const LOGO_MAX_BYTES = 9_999_999;

/**
 * organisationUpdateLogo: a jpg or png under 10,000,000 bytes, checked against its content and
 * stripped of metadata before it is stored (files/logo-image.ts), replacing the previous logo.
 * Owners and admins change their own organisation's logo; the super admin any.
 */
export async function updateOrganisationLogo(ctx: Ctx, rawId: string, file: File | null) {
  // Who may, and which organisation, before the file is read at all.
  const caller = requirePermission(ctx, "OrganisationUpdate");
  const id = requireUuid(rawId, ORGANISATION_NOT_FOUND);
  if (!canReachOrganisation(caller, id)) throw new UserError("NOT_FOUND", ORGANISATION_NOT_FOUND);
  if (!file) throw badInput(LOGO_UPLOAD_FAILED, [{ field: "file", message: LOGO_UPLOAD_FAILED }]);
  const image = await prepareAvatarImage(incomingImage(file), { maxBytes: LOGO_MAX_BYTES, baseName: "logo" });
  let replacedStorageKey: string | null = null;
  let ended: () => Promise<void> = async () => {};
  await storeCheckedFile(ctx, { purpose: "OrganisationLogo", organisationId: id, fileName: image.fileName, mimeType: image.mimeType, bytes: image.bytes }, (insertBlobRow) =>
    mutate(ctx, "OrganisationUpdate", async (tx, actor) => {
      if (!canReachOrganisation(actor, id)) throw new UserError("NOT_FOUND", ORGANISATION_NOT_FOUND);
      const [before] = await tx.select().from(organisations).where(eq(organisations.id, id)).for("update");
      if (!before) throw new UserError("NOT_FOUND", ORGANISATION_NOT_FOUND);
      const blobId = await insertBlobRow(tx);
      await tx.update(organisations).set({ logoBlobId: blobId }).where(eq(organisations.id, id));
      if (before.logoBlobId) replacedStorageKey = await deleteBlob(tx, before.logoBlobId);
      await recordActivity(tx, actor, {
        organisationId: id,
        objectType: "Organisation",
        objectId: id,
        action: "UpdateLogo",
        metadata: { name: before.name, mime_type: image.mimeType, size_bytes: image.bytes.length },
      });
      ended = await ctx.services.invalidator.announce(tx, { organisationIds: [id] });
    }),
  );
  await ended();
  if (replacedStorageKey) await removeBlobBytes(ctx, replacedStorageKey, "a replaced organisation logo");
  return id;
}

/** Deletes a blob row and answers its storage key, for removing the bytes after the commit. */
export async function deleteBlob(tx: Database, blobId: string): Promise<string | null> {
  const [removed] = await tx.delete(blobs).where(eq(blobs.id, blobId)).returning({ storageKey: blobs.storageKey });
  return removed?.storageKey ?? null;
}
