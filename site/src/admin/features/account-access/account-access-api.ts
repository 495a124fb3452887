import { atom } from 'nanostores';
import { graphqlRequest } from '../../../lib/graphql';
import { FALLBACK_ERROR_MESSAGE, postJson } from '../../../lib/http';
import { VERIFY_ACCOUNT_PATH } from '../../paths';

// The calls behind forgot password, reset password and account verification (spec §7), each
// reduced to what its screen needs. They run signed out too, so they use plain requests rather
// than the signed-in console's client.

export type Outcome = { ok: true } | { ok: false; message: string };

/**
 * forgotPassword: the page shows the same sentence whatever happens, so the outcome only goes to
 * the browser's console (spec §2). verifyToken starts empty; when the server asks for proof of
 * work (action forgot_password_submit), the request is solved and repeated with it.
 */
export async function requestPasswordReset(email: string): Promise<void> {
  const result = await graphqlRequest('mutation ForgotPassword($email: String!, $verifyToken: String) { forgotPassword(email: $email, verifyToken: $verifyToken) }', {
    email,
    verifyToken: '',
  });
  if (!result.ok) console.error('forgotPassword failed:', result.message);
}

export type ResetLinkState = 'valid' | 'invalid' | { error: string };

export async function checkResetLink(token: string): Promise<ResetLinkState> {
  const result = await graphqlRequest('query VerifyResetToken($token: String!) { verifyResetToken(token: $token) }', { token });
  if (!result.ok) return { error: result.message };
  return (result.data as { verifyResetToken?: unknown }).verifyResetToken === true ? 'valid' : 'invalid';
}

export async function resetPassword(token: string, newPassword: string): Promise<Outcome> {
  const result = await graphqlRequest('mutation ResetPassword($token: String!, $newPassword: String!) { resetPassword(token: $token, newPassword: $newPassword) }', {
    token,
    newPassword,
  });
  return result.ok ? { ok: true } : { ok: false, message: result.message };
}

export async function verifyAccount(token: string): Promise<Outcome> {
  const result = await postJson('/api/auth/verify_account', { token });
  return result.ok ? { ok: true } : { ok: false, message: result.message || FALLBACK_ERROR_MESSAGE };
}

export async function resendVerification(email: string): Promise<Outcome> {
  const result = await graphqlRequest('mutation ResendEmailVerification($email: String!) { resendEmailVerification(email: $email) }', { email });
  return result.ok ? { ok: true } : { ok: false, message: result.message };
}

/**
 * Where an unverified user was when they chose to verify: the console returns there once the
 * account is verified (spec §2). Kept for this page load only; a code opened from the mail in a
 * new tab goes home instead.
 */
export const $verifyReturnPath = atom<string | undefined>(undefined);

export function rememberVerifyReturnPath(path: string): void {
  $verifyReturnPath.set(path.startsWith(VERIFY_ACCOUNT_PATH) ? undefined : path);
}
