import { createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";

/**
 * Credentials handed to an anonymous reporter on completing a report. They are the reporter's
 * only way back to the report, so they are written down or read aloud: Crockford's base32 leaves
 * out I, L, O and U so nothing is ambiguous on paper, and hyphenated groups of five are easy to
 * copy. Both are case-insensitive and forgiving of the usual slips (see the normalisers).
 */
export const CROCKFORD_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

const GROUP_LENGTH = 5;
const REPORT_ID_LENGTH = 10;
/** 20 symbols of 5 bits each: 100 bits, comfortably above the 96 the spec asks for. */
const REPORT_PASSWORD_LENGTH = 20;

/** Letters people type for digits they misread; Crockford decodes them to the digit. */
const CONFUSABLES: Record<string, string> = { I: "1", L: "1", O: "0" };

function randomSymbols(count: number): string {
  let symbols = "";
  // randomInt draws uniformly (it rejects internally), so no symbol is likelier than another.
  for (let i = 0; i < count; i += 1) symbols += CROCKFORD_ALPHABET[randomInt(CROCKFORD_ALPHABET.length)];
  return symbols;
}

function group(symbols: string): string {
  const groups: string[] = [];
  for (let i = 0; i < symbols.length; i += GROUP_LENGTH) groups.push(symbols.slice(i, i + GROUP_LENGTH));
  return groups.join("-");
}

/**
 * Uppercases, drops every separator (spaces, hyphens, the dashes word processors substitute),
 * decodes confusable letters and regroups, so a loosely typed credential compares equal to the
 * stored form. Anything else that is wrong stays wrong and simply fails to match.
 */
function normalise(input: string): string {
  const cleaned = input
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, "")
    .replace(/[ILO]/g, (letter) => CONFUSABLES[letter] ?? letter);
  return group(cleaned);
}

/** The identifier a reporter types to log in, as `XXXXX-XXXXX` (50 bits; unique in the database). */
export function generateReportId(): string {
  return group(randomSymbols(REPORT_ID_LENGTH));
}

/** The reporter's password, as `XXXXX-XXXXX-XXXXX-XXXXX` (100 bits). Only its hash is stored. */
export function generateReportPassword(): string {
  return group(randomSymbols(REPORT_PASSWORD_LENGTH));
}

/** Canonical form of a typed report ID; always compare and look up by this. */
export function normaliseReportId(input: string): string {
  return normalise(input);
}

/** Canonical form of a typed report password; hash and verify this, never the raw input. */
export function normaliseReportPassword(input: string): string {
  return normalise(input);
}

/**
 * Stored form of a generated credential (a report password or an enquiry pin), in the PHC string
 * layout: `$hmac-sha256$v=1$<salt>$<digest>`, both base64 without padding. The digest is
 * HMAC-SHA-256 keyed with 16 random bytes of the row's own, over the canonical credential.
 *
 * A fast hash is enough because the secret is 100 random bits: no hash makes guessing it
 * feasible, offline or on-line, so Argon2id would only spend our CPU (docs/decisions/005). The
 * salt keeps one guess from being tried against every row of a database dump at once.
 * Passwords people choose never come here: they stay Argon2id (lib/passwords.ts).
 */
export const GENERATED_HASH_PREFIX = "$hmac-sha256$v=1$";
const SALT_BYTES = 16;

function digest(salt: Buffer, canonical: string): Buffer {
  return createHmac("sha256", salt).update(canonical, "utf8").digest();
}

/** Hashes a credential already in canonical form (as generated, or normalised from input). */
export function hashGeneratedCredential(canonical: string): string {
  const salt = randomBytes(SALT_BYTES);
  return `${GENERATED_HASH_PREFIX}${salt.toString("base64").replace(/=+$/, "")}$${digest(salt, canonical).toString("base64").replace(/=+$/, "")}`;
}

export function isGeneratedCredentialHash(stored: string | null): stored is string {
  return stored !== null && stored.startsWith(GENERATED_HASH_PREFIX);
}

/** A well-formed hash of a random value: unknown reports are checked against it, at the same cost. */
const DUMMY_GENERATED_HASH = hashGeneratedCredential(generateReportPassword());

/**
 * Compares a canonical credential with a stored generated-credential hash in constant time. Given
 * anything that is not such a hash (null, Argon2id, damaged), it checks against a dummy instead, so
 * the work done is the same, and answers false.
 */
export function verifyGeneratedCredential(stored: string | null, canonical: string): boolean {
  const own = isGeneratedCredentialHash(stored);
  const [salt, expected] = (own ? stored : DUMMY_GENERATED_HASH).slice(GENERATED_HASH_PREFIX.length).split("$");
  const saltBytes = Buffer.from(salt ?? "", "base64");
  const expectedBytes = Buffer.from(expected ?? "", "base64");
  const actual = digest(saltBytes, canonical);
  const equal = expectedBytes.length === actual.length && timingSafeEqual(expectedBytes, actual);
  return own && saltBytes.length === SALT_BYTES && equal;
}
