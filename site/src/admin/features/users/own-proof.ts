import type { CombinedError } from 'urql';
import { proofRefusal, type AccountProof, type ProofRefusal } from '../../ui/proof-dialog';

// userUpdate takes the acting user's own proof as ownPassword, ownPasscode and ownRecoveryCode:
// its `password` is the new one being set for the other user (decision 061).

const OWN_NAMES = { password: 'ownPassword', passcode: 'ownPasscode', recoveryCode: 'ownRecoveryCode' } as const;

/** The proof dialog's answer, as userUpdate's input fields. */
export function ownProof(proof: AccountProof): Record<string, string> {
  const input: Record<string, string> = {};
  for (const key of Object.keys(OWN_NAMES) as (keyof AccountProof)[]) {
    const value = proof[key];
    if (value) input[OWN_NAMES[key]] = value;
  }
  return input;
}

/** A refused userUpdate, its own-proof problems named as the proof dialog's fields are. */
export function ownProofRefusal(error: CombinedError): ProofRefusal {
  const refusal = proofRefusal(error);
  const fields: Record<string, string> = {};
  for (const [key, own] of Object.entries(OWN_NAMES)) if (refusal.fields?.[own]) fields[key] = refusal.fields[own]!;
  return { message: refusal.message, fields };
}
