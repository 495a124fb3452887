import { passcodeAt, totpStep } from "../../api/modules/auth/two-factor/codes.ts";

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
