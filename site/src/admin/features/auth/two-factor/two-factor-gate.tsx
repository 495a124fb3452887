import type { ReactNode } from 'react';
import type { Viewer } from '../../../viewer';
import { PasscodeScreen } from './passcode-screen';
import { RecoveryDownloadScreen } from './recovery-download-screen';
import { SetupScreen } from './setup-screen';
import { $recoveryCodeOwed } from './two-factor-store';

/**
 * The screen a signed-in viewer must pass before the console (spec §4 Two-factor: not set up,
 * setup, verify passcode, recovery code download, app), or undefined when nothing is owed. The
 * server enforces the same steps: until they are done the session reaches no data.
 */
export function twoFactorGate(viewer: Viewer): ReactNode | undefined {
  if (!viewer.twoFactorAuthenticationActivated) return undefined;
  if (!viewer.twoFactorAuthenticationIsSet) return <SetupScreen userID={viewer.id} />;
  if (!viewer.pass2FA) return <PasscodeScreen />;
  if (!viewer.hasRecoveryCode || $recoveryCodeOwed.get() === viewer.id) return <RecoveryDownloadScreen />;
  return undefined;
}
