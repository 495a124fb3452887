import { loginOriginUrl } from './hosts';

// The landing page is static, yet "Follow up Report" must point at the login
// subdomain of whichever domain served it. Links keep a same-origin fallback
// (`/report/login`) until this runs, so they work without JavaScript too.
export function wireLoginLinks(root: ParentNode = document): void {
  const url = loginOriginUrl(window.location);
  for (const link of root.querySelectorAll<HTMLAnchorElement>('a[data-login-link]')) {
    link.href = url;
  }
}
