// What the invite page keeps in the tab for its one round trip through Microsoft (decision 036);
// small on purpose: the route table reads it to know whose /login-ms/callback this is.

export const SSO_ONBOARDING_KEY = 'lantern:onboarding-sso';

export type PendingSsoOnboarding = { inviteToken: string; email: string; firstName: string; lastName: string };

export function pendingSsoOnboarding(): PendingSsoOnboarding | null {
  try {
    const raw = window.sessionStorage.getItem(SSO_ONBOARDING_KEY);
    return raw ? (JSON.parse(raw) as PendingSsoOnboarding) : null;
  } catch {
    return null;
  }
}
