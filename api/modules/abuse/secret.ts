import { createHmac, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { proofOfWorkKeys } from "../../../db/schema/index.ts";
import { KeyRing } from "../../lib/key-ring.ts";

const KEY_ROW = 1;
const secrets = new WeakMap<Database, Promise<string>>();

/**
 * Stored sealed with the platform's key (docs/decisions/062-sealed-account-secrets.md): with it, a
 * dump would let anyone forge challenges and test guessed emails against the failure counts' keys.
 */
async function loadSecret(db: Database): Promise<string> {
  const sealer = await KeyRing.of(db).platformSealer(db);
  const owner = String(KEY_ROW);
  // The first instance to ask writes the secret; a concurrent one's insert does nothing and both read the winner.
  await db
    .insert(proofOfWorkKeys)
    .values({ id: KEY_ROW, secret: sealer.sealText("proofOfWorkSecret", owner, randomBytes(32).toString("base64url")) })
    .onConflictDoNothing();
  const [row] = await db.select({ secret: proofOfWorkKeys.secret }).from(proofOfWorkKeys).where(eq(proofOfWorkKeys.id, KEY_ROW));
  return sealer.openText("proofOfWorkSecret", owner, row!.secret);
}

/** The secret every instance on this database shares; read once per process. */
export function serverSecret(db: Database): Promise<string> {
  let secret = secrets.get(db);
  if (!secret) {
    secret = loadSecret(db);
    secrets.set(db, secret);
    // A failed read (database briefly away) must not be remembered.
    secret.catch(() => secrets.delete(db));
  }
  return secret;
}

/** "password-reset": requests for reset links, counted apart from the sign-in failures of the same email. */
export type SubjectKind = "staff" | "report" | "form" | "organisation" | "password-reset" | "onboarding" | "draft";

/**
 * A keyed, one-way name for what an attempt is about: a staff email, a report ID, a form, an
 * organisation. Computed the same way whether or not the subject exists, and it is what the
 * failure counts and challenges carry, so neither stores an email or report ID in the clear.
 */
export async function subjectKey(db: Database, kind: SubjectKind, normalised: string): Promise<string> {
  const secret = await serverSecret(db);
  return createHmac("sha256", secret).update(`subject:${kind}:${normalised}`).digest("hex").slice(0, 32);
}
