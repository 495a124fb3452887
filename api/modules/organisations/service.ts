import { eq } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { organisations } from "../../../db/schema/index.ts";
import type { Ctx, StaffActor } from "../../context.ts";
import { UserError, badInput, forbidden } from "../../lib/errors.ts";
import { requireUuid } from "../../lib/ids.ts";
import { recordActivity } from "../audit/service.ts";
import { removeBlobBytes } from "../files/stored-blob.ts";
import { deleteBlob } from "./administration.ts";
import { canReachOrganisation, isSuperAdmin, mutate, requirePermission } from "../access/policy.ts";
import { REMOVE_LOGO, SUPER_ADMIN_ONLY_SETTINGS, type OrganisationSettings } from "./inputs.ts";
import { CHANGED_MEANWHILE, OWN_PROOF_FIELDS, proveOwnAccountUnder, spendProof } from "../auth/reauthentication.ts";

export const ORGANISATION_NOT_FOUND = "Organisation is not found";
/** Spec §5 and §8: the logo's failure text. */
export const LOGO_UPLOAD_FAILED = "Upload Failed";

/** An organisation the actor reaches, else "not found" (malformed ids and other tenants' alike); `forUpdate` locks its row. */
export async function reachableOrganisation(db: Database, actor: StaffActor, rawId: unknown, forUpdate = false) {
  const id = requireUuid(rawId, ORGANISATION_NOT_FOUND);
  if (!canReachOrganisation(actor, id)) throw new UserError("NOT_FOUND", ORGANISATION_NOT_FOUND);
  const query = db.select().from(organisations).where(eq(organisations.id, id));
  const [row] = forUpdate ? await query.for("update") : await query;
  if (!row) throw new UserError("NOT_FOUND", ORGANISATION_NOT_FOUND);
  return row;
}

/** The organisationID an input object from outside names, read before the input is judged. */
export const organisationIdIn = (raw: unknown): unknown => (raw && typeof raw === "object" ? (raw as { organisationID?: unknown }).organisationID : undefined);

/** The organisation an input object names (its organisationID), when it names one: found before the rest of the input is judged (decision 065). */
export async function namedOrganisation(db: Database, actor: StaffActor, raw: unknown): Promise<void> {
  const named = organisationIdIn(raw);
  if (named !== null && named !== undefined) await reachableOrganisation(db, actor, named);
}

/** One organisation the actor may read; anyone else's is reported as not found. */
export async function getOrganisation(ctx: Ctx, rawId: string) {
  return reachableOrganisation(ctx.db, requirePermission(ctx, "OrganisationRead"), rawId);
}

/** How the organisation's accounts sign in (magic links, single sign-on): changing it needs the super admin's own proof (decision 061). */
function signInSettingsChange(before: { enableEmailAuth2FA: boolean; enableSSO: boolean }, input: { enableEmailAuth2FA?: boolean; enableSSO?: boolean }): boolean {
  return (input.enableEmailAuth2FA !== undefined && input.enableEmailAuth2FA !== before.enableEmailAuth2FA) || (input.enableSSO !== undefined && input.enableSSO !== before.enableSSO);
}

/**
 * Changes an organisation's settings. Every instance's cached copy of it (organisation-cache.ts) has
 * gone before this answers: a renamed or archived organisation's old host answers "not found" at once.
 */
export async function updateOrganisation(ctx: Ctx, rawId: string, { logoBlobID, ownPassword, ownPasscode, ownRecoveryCode, ...input }: OrganisationSettings) {
  let removedLogoKey: string | null = null;
  const actor = requirePermission(ctx, "OrganisationUpdate");
  // Found before anything else is judged (decision 065); a first look, to know whether proof is needed (decision 061).
  const current = await reachableOrganisation(ctx.db, actor, rawId);
  if (!isSuperAdmin(actor) && SUPER_ADMIN_ONLY_SETTINGS.some((key) => input[key] !== undefined)) throw forbidden();
  const proof = signInSettingsChange(current, input) ? await proveOwnAccountUnder(ctx, actor, { password: ownPassword, passcode: ownPasscode, recoveryCode: ownRecoveryCode }, OWN_PROOF_FIELDS) : null;
  const { after, copiesEnded } = await mutate(ctx, "OrganisationUpdate", async (tx) => {
    // Read again under lock: the change is judged on the row as it is now.
    const before = await reachableOrganisation(tx, actor, rawId, true);
    const id = before.id;
    if (signInSettingsChange(before, input) && !proof) throw new UserError("CONFLICT", CHANGED_MEANWHILE);
    if (proof) await spendProof(tx, proof);
    // Only '-' or the current logo's id: a new logo arrives through organisationUpdateLogo, never by naming another blob.
    if (logoBlobID !== undefined && logoBlobID !== REMOVE_LOGO && logoBlobID.toLowerCase() !== before.logoBlobId) {
      throw badInput(LOGO_UPLOAD_FAILED, [{ field: "logoBlobID", message: LOGO_UPLOAD_FAILED }]);
    }
    const changes: Record<string, unknown> = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
    if (logoBlobID === REMOVE_LOGO && before.logoBlobId) {
      changes.logoBlobId = null;
      removedLogoKey = await deleteBlob(tx, before.logoBlobId);
    }
    // Nothing to write (say, the current logo's id sent back as it was): the row stays as it is.
    const [after] = Object.keys(changes).length ? await tx.update(organisations).set(changes).where(eq(organisations.id, id)).returning() : [before];
    await recordActivity(tx, actor, {
      organisationId: id,
      objectType: "Organisation",
      objectId: id,
      action: "Update",
      metadata: { name: after!.name, fields: Object.keys(changes) },
    });
    return { after: after!, copiesEnded: await ctx.services.invalidator.announce(tx, { organisationIds: [id] }) };
  });
  await copiesEnded();
  if (removedLogoKey) await removeBlobBytes(ctx, removedLogoKey, "a removed organisation logo");
  return after;
}
