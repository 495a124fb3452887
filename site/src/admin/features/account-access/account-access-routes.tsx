import { FORGOT_PASSWORD_PATH } from '../../paths';
import type { AdminLocation } from '../../router';
import type { RouteResult } from '../../routes';
import type { Viewer } from '../../viewer';
import { EmailChangePage, type EmailChangeLink } from './email-change-page';
import { ForgotPasswordPage } from './forgot-password-page';
import { ResetPasswordPage } from './reset-password-page';
import { VerifyAccountPage } from './verify-account-page';

function segment(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/**
 * The account-access screens (spec §2): forgot and reset password open signed in or not (a mailed
 * link may be opened anywhere); /admin/verify sits in the console for a signed-in user, and stands
 * alone for a visitor who opened the mailed code signed out. Undefined for any other path.
 */
export type AccountAccessActions = {
  /** A reset ended every session of its account: a browser signed in as that user forgets it. */
  onPasswordReset: () => void;
  onVerified: () => Promise<void>;
};

const EMAIL_CHANGE_LINKS: Record<string, EmailChangeLink> = { 'confirm-email': 'confirm', 'cancel-email-change': 'cancel' };

export function accountAccessRoute(location: AdminLocation, viewer: Viewer | null, actions: AccountAccessActions): RouteResult | undefined {
  const path = location.pathname;
  if (path === FORGOT_PASSWORD_PATH) return { kind: 'page', layout: 'bare', element: <ForgotPasswordPage /> };
  const reset = /^\/admin\/reset-password\/([^/]+)$/.exec(path);
  const token = reset ? segment(reset[1]!) : undefined;
  if (token !== undefined) return { kind: 'page', layout: 'bare', element: <ResetPasswordPage key={token} token={token} onPasswordReset={actions.onPasswordReset} /> };
  const emailChange = /^\/admin\/(confirm-email|cancel-email-change)\/([^/]+)$/.exec(path);
  const emailToken = emailChange ? segment(emailChange[2]!) : undefined;
  if (emailChange && emailToken !== undefined) {
    const link = EMAIL_CHANGE_LINKS[emailChange[1]!]!;
    // A cancellation ends every session of the account, so a browser signed in as it forgets it; a confirmation changes its address.
    const onDone = link === 'cancel' ? actions.onPasswordReset : () => void actions.onVerified();
    return { kind: 'page', layout: 'bare', element: <EmailChangePage key={path} link={link} token={emailToken} viewer={viewer} onDone={onDone} /> };
  }
  const verify = /^\/admin\/verify(?:\/([^/]+))?$/.exec(path);
  if (!verify) return undefined;
  const code = verify[1] === undefined ? undefined : segment(verify[1]);
  const element = <VerifyAccountPage key={code ?? ''} code={code} viewer={viewer} onVerified={actions.onVerified} />;
  return { kind: 'page', layout: viewer ? 'shell' : 'bare', element };
}
