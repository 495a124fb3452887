import * as v from 'valibot';
import { FALLBACK_ERROR_MESSAGE, postJson } from '../../../lib/http';

// 'Sign in With Microsoft Account': the two REST calls of the round trip through the provider.

const startResponse = v.object({ url: v.pipe(v.string(), v.url()) });

/** Where to send the browser; the server keeps the flow's secrets in an httpOnly cookie meanwhile. */
export async function startSsoSignIn(): Promise<{ ok: true; url: string } | { ok: false; message: string }> {
  const result = await postJson('/api/auth/login_sso/start', {});
  if (!result.ok) return { ok: false, message: result.message };
  const parsed = v.safeParse(startResponse, result.data);
  return parsed.success ? { ok: true, url: parsed.output.url } : { ok: false, message: FALLBACK_ERROR_MESSAGE };
}

/** POST /api/auth/login_sso with what the provider put in the callback's address. */
export async function finishSsoSignIn(code: string, state: string): Promise<{ ok: true } | { ok: false; message: string }> {
  const result = await postJson('/api/auth/login_sso', { token: code, state, verifyToken: '' });
  return result.ok ? { ok: true } : { ok: false, message: result.message };
}
