import { eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { sessions, users } from "../../db/schema/index.ts";
import type { TestServer } from "./server.ts";
import { newRecoveryCode, newTotpSecret, passcodeAt, recoveryCodeHash, totpStep } from "../../api/modules/auth/two-factor/codes.ts";
import { openTwoFactorSecret, sealTwoFactorSecret } from "../../api/modules/auth/two-factor/sealed-secret.ts";
import { KeyRing } from "../../api/lib/key-ring.ts";

/**
 * Passcodes as an authenticator app would show them. A passcode is accepted once, so a test that
 * gives several in a row asks for the code of the next time step each time: the server accepts
 * the steps either side of the current one, as it does for a phone whose clock runs a little fast.
 */
export function authenticator(secret: string) {
  let next = totpStep(new Date());
  return {
    /** The code of the current step, then of the next one, and so on (at most one step ahead of the clock). */
    nextPasscode(): string {
      const now = totpStep(new Date());
      if (next < now) next = now;
      if (next > now + 1) throw new Error("no unused passcode left in this time step");
      return passcodeAt(secret, next++);
    },
    passcodeAt: (step: number) => passcodeAt(secret, step),
  };
}

/**
 * Gives an account two-factor authentication as if its owner had set it up, and counts its existing
 * sessions as having given the passcode, for tests about what 2FA unlocks (guest access) rather than
 * about 2FA itself. Setting only `two_factor_authentication_activated` is not enough: such an
 * account owes setup, and its sessions reach nothing until it is done (decision 030). Call it after
 * signing the user in: a session opened afterwards owes its passcode, as it should. The key is
 * stored sealed, as setup stores it (decision 062).
 */
export async function giveTwoFactor(db: Database, userId: string): Promise<{ secret: string; recoveryCode: string }> {
  const secret = newTotpSecret();
  // Its recovery code downloaded too, as setup ends: else the console would ask for the download first.
  const recoveryCode = newRecoveryCode();
  await db
    .update(users)
    .set({
      twoFactorAuthenticationActivated: true,
      twoFactorAuthenticationIsSet: true,
      twoFactorSecret: await sealTwoFactorSecret(KeyRing.of(db), db, userId, secret),
      recoveryCodeHash: recoveryCodeHash(recoveryCode),
    })
    .where(eq(users.id, userId));
  await db.update(sessions).set({ twoFactorPassed: true }).where(eq(sessions.userId, userId));
  return { secret, recoveryCode };
}

/**
 * Turns an account's two-factor authentication on (as `giveTwoFactor`, its open sessions having
 * passed) or off, found by email, for tests about what two-factor unlocks rather than about setting
 * it up; and ends every instance's cached copy of its sessions, as the product's own changes do.
 */
export async function setTwoFactorActivated(server: TestServer, email: string, on: boolean): Promise<void> {
  const { db } = server;
  const [account] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  if (!account) throw new Error(`No account ${email}`);
  if (on) await giveTwoFactor(db, account.id);
  else await db.update(users).set({ twoFactorAuthenticationActivated: false, twoFactorAuthenticationIsSet: false, twoFactorSecret: null, recoveryCodeHash: null }).where(eq(users.id, account.id));
  const announced = await db.transaction((tx) => server.lantern.services.invalidator.announce(tx, { userIds: [account.id] }));
  await announced();
}

/** The account's row with its authenticator key opened, as the server reads it (the column holds it sealed: decision 062). */
export async function userRowOpened(db: Database, userId: string) {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  return { ...row!, twoFactorSecret: await openTwoFactorSecret(KeyRing.of(db), db, userId, row!.twoFactorSecret) };
}
