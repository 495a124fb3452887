import { Suspense, type ReactNode } from 'react';
import { lazyScreen } from '../../../ui/lazy-screen';
import type { Viewer } from '../../../viewer';
import { $recoveryCodeOwed } from './two-factor-store';

// The screens (and the QR code drawer) load only for a viewer who owes a step: most sign-ins never do.
const SetupScreen = lazyScreen('SetupScreen', () => import('./setup-screen'));
const PasscodeScreen = lazyScreen('PasscodeScreen', () => import('./passcode-screen'));
const RecoveryDownloadScreen = lazyScreen('RecoveryDownloadScreen', () => import('./recovery-download-screen'));

const step = (element: ReactNode) => (
  <Suspense
    fallback={
      <p className="muted" role="status">
        Loading…
      </p>
    }
  >
    {element}
  </Suspense>
);

/**
 * The screen a signed-in viewer must pass before the console (spec §4 Two-factor: not set up,
 * setup, verify passcode, recovery code download, app), or undefined when nothing is owed. The
 * server enforces the same steps: until they are done the session reaches no data.
 */
export function twoFactorGate(viewer: Viewer): ReactNode | undefined {
  if (!viewer.twoFactorAuthenticationActivated) return undefined;
  if (!viewer.twoFactorAuthenticationIsSet) return step(<SetupScreen userID={viewer.id} />);
  if (!viewer.pass2FA) return step(<PasscodeScreen />);
  if (!viewer.hasRecoveryCode || $recoveryCodeOwed.get() === viewer.id) return step(<RecoveryDownloadScreen account={viewer} />);
  return undefined;
}
