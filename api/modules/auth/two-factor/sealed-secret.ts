import type { Database } from "../../../../db/client.ts";
import type { KeyRing } from "../../../lib/key-ring.ts";
import { logError } from "../../../lib/log.ts";

/**
 * The authenticator's key at rest (docs/decisions/062-sealed-account-secrets.md). TOTP needs the
 * key itself to compute passcodes, so it cannot be hashed: it is sealed with the platform's key
 * (a super admin belongs to no organisation), bound to its user, so a dump or a backup holds no key
 * and a sealed key copied into another account's row does not open there.
 */

export async function sealTwoFactorSecret(keyRing: KeyRing, db: Database, userId: string, secret: string): Promise<string> {
  return (await keyRing.platformSealer(db)).sealText("twoFactorSecret", userId, secret);
}

/**
 * The key of a stored value (a value in plain is from before sealing and reads as it is), or null
 * when there is none. A value that does not open is the data fault it is: logged, and read as no
 * key, so no passcode matches it while the recovery code, which does not need it, still works.
 */
export async function openTwoFactorSecret(keyRing: KeyRing, db: Database, userId: string, stored: string | null): Promise<string | null> {
  if (!stored) return null;
  const sealer = await keyRing.platformSealer(db);
  try {
    return sealer.openText("twoFactorSecret", userId, stored);
  } catch (error) {
    logError("An account's authenticator key does not open; no passcode is accepted for it", error, { userId });
    return null;
  }
}
