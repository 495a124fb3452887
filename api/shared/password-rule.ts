/** The spec's password rule, shared by the server and the site so both say the same thing. */
export const MIN_PASSWORD_LENGTH = 8;

export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return "Password must contain at least 8 characters";
  if (!/\p{L}/u.test(password) || !/\p{N}/u.test(password)) return "Password must contain at least 1 letter and number";
  return null;
}

/** 0–4, for the strength bar: length and variety of characters. */
export function passwordStrength(password: string): number {
  let score = 0;
  if (password.length >= MIN_PASSWORD_LENGTH) score += 1;
  if (password.length >= 12) score += 1;
  if (/[a-z]/.test(password) && /[A-Z]/.test(password)) score += 1;
  if (/\p{N}/u.test(password) && /[^\p{L}\p{N}]/u.test(password)) score += 1;
  return score;
}
