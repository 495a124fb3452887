import * as v from 'valibot';
import { graphqlRequest } from '../../../../lib/graphql';
import { FALLBACK_ERROR_MESSAGE, postJson } from '../../../../lib/http';

// The two-factor calls (spec §7). The screens that use them come before the console, outside its
// GraphQL client, so they make plain requests like the login page does.

export type Outcome<T = true> = { ok: true; value: T } | { ok: false; message: string };

export const RECOVERY_CODE_FILE = 'recovery_code.txt';

async function gql<T>(query: string, schema: v.GenericSchema<unknown, T>, variables?: Record<string, unknown>): Promise<Outcome<T>> {
  const result = await graphqlRequest(query, variables);
  if (!result.ok) return { ok: false, message: result.message };
  const parsed = v.safeParse(schema, result.data);
  return parsed.success ? { ok: true, value: parsed.output } : { ok: false, message: FALLBACK_ERROR_MESSAGE };
}

const secretSchema = v.object({ twoFactorAuthenticationSecret: v.object({ secret: v.string(), qrCodeString: v.string() }) });

export async function loadSecret(): Promise<Outcome<{ secret: string; qrCodeString: string }>> {
  const result = await gql('query TwoFactorSecret { twoFactorAuthenticationSecret { secret qrCodeString } }', secretSchema);
  return result.ok ? { ok: true, value: result.value.twoFactorAuthenticationSecret } : result;
}

export async function submitPasscode(passcode: string): Promise<Outcome> {
  const result = await postJson('/api/auth/two_factor/verification', { passcode });
  return result.ok ? { ok: true, value: true } : { ok: false, message: result.message };
}

export async function undoSetup(): Promise<Outcome> {
  const result = await gql('mutation TwoFactorUndo { twoFactorAuthenticationUndo }', v.object({ twoFactorAuthenticationUndo: v.boolean() }));
  return result.ok ? { ok: true, value: true } : result;
}

export async function recover(recoveryCode: string): Promise<Outcome> {
  const result = await gql('mutation TwoFactorRecover($recoveryCode: String!) { twoFactorAuthenticationRecover(recoveryCode: $recoveryCode) }', v.object({ twoFactorAuthenticationRecover: v.boolean() }), {
    recoveryCode,
  });
  return result.ok ? { ok: true, value: true } : result;
}

/** A new recovery code; replacing one that exists needs proof of the account (decision 061). */
export async function loadRecoveryCode(proof: Record<string, string> = {}): Promise<Outcome<string>> {
  const result = await gql(
    'query TwoFactorRecoveryCode($password: String, $passcode: String, $recoveryCode: String) { twoFactorRecoveryCode(password: $password, passcode: $passcode, recoveryCode: $recoveryCode) }',
    v.object({ twoFactorRecoveryCode: v.array(v.string()) }),
    proof,
  );
  if (!result.ok) return result;
  const [code] = result.value.twoFactorRecoveryCode;
  return code ? { ok: true, value: code } : { ok: false, message: FALLBACK_ERROR_MESSAGE };
}
