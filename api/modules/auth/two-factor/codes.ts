import { randomBytes } from "node:crypto";
import { createTOTPKeyURI, generateHOTP } from "@oslojs/otp";
import { decodeBase32IgnorePadding, encodeBase32UpperCaseNoPadding } from "@oslojs/encoding";
import { constantTimeEqual, hashToken } from "../../../lib/tokens.ts";

/**
 * The secrets of two-factor authentication (RFC 6238 TOTP through @oslojs/otp): the authenticator's
 * key, the passcodes it shows, and the one recovery code for a lost device.
 */

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** The issuer an authenticator app shows next to the account. */
export const TOTP_ISSUER = "Lantern";
/**
 * Passcodes of the step before and after the current one are accepted too: a phone's clock may be a
 * little off, and a code typed in its last seconds arrives in the next step.
 */
const STEP_DRIFT = 1;

/** 160 random bits (RFC 4226's recommended key length), in base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return encodeBase32UpperCaseNoPadding(randomBytes(20));
}

/** The otpauth:// address the setup screen draws as a QR code (in the browser, never by a third party). */
export function totpKeyUri(secret: string, accountName: string): string {
  return createTOTPKeyURI(TOTP_ISSUER, accountName, decodeBase32IgnorePadding(secret), TOTP_PERIOD_SECONDS, TOTP_DIGITS);
}

export function totpStep(now: Date): number {
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);
}

/** A passcode as people type it: spaces and dashes between the digits do not matter. */
export function normalisePasscode(passcode: string): string {
  return passcode.replace(/[\s-]/g, "");
}

/**
 * The time step whose passcode this is, or null. Steps at or before `lastAcceptedStep` are never
 * matched: a passcode is accepted once (the caller records the step it accepted).
 */
export function matchingStep(secret: string, passcode: string, now: Date, lastAcceptedStep: number | null): number | null {
  const code = normalisePasscode(passcode);
  if (!/^\d{6}$/.test(code)) return null;
  const key = decodeBase32IgnorePadding(secret);
  const current = totpStep(now);
  let found: number | null = null;
  // Every candidate is computed and compared, so the answer takes the same time whichever matched.
  for (let step = current - STEP_DRIFT; step <= current + STEP_DRIFT; step += 1) {
    const matches = constantTimeEqual(generateHOTP(key, BigInt(step), TOTP_DIGITS), code);
    if (matches && found === null && (lastAcceptedStep === null || step > lastAcceptedStep)) found = step;
  }
  return found;
}

/** The passcode an authenticator shows for a step (for tests and the demo's instructions). */
export function passcodeAt(secret: string, step: number): string {
  return generateHOTP(decodeBase32IgnorePadding(secret), BigInt(step), TOTP_DIGITS);
}

/** 160 random bits, in groups of four base32 characters so it can be typed from a printout. */
export function newRecoveryCode(): string {
  return encodeBase32UpperCaseNoPadding(randomBytes(20)).match(/.{4}/g)!.join("-");
}

/** Stored only as this hash; case, spaces and dashes as typed do not matter. */
export function recoveryCodeHash(code: string): string {
  return hashToken(code.replace(/[\s-]/g, "").toUpperCase());
}
