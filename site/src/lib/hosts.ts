// Host arithmetic for the three faces of Lantern: the bare or `app.` domain
// (landing and admin), `login.` (global report login) and `{slug}.` (an
// organisation). The app domain is not known at build time, so every link
// between faces is computed from the current location in the browser.

export type LocationParts = Pick<Location, 'protocol' | 'hostname' | 'port'>;

const APP_PREFIX = 'app.';
const LOGIN_PREFIX = 'login.';

// Slugs come from our own server, but they end up in a host name: anything
// beyond a DNS label could send the reporter to a host we do not control.
const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

function portSuffix(port: string): string {
  return port === '' ? '' : `:${port}`;
}

function appDomainOf(hostname: string): string {
  return hostname.startsWith(APP_PREFIX) ? hostname.slice(APP_PREFIX.length) : hostname;
}

export function loginOriginUrl(location: LocationParts): string {
  return `${location.protocol}//${LOGIN_PREFIX}${appDomainOf(location.hostname)}${portSuffix(location.port)}/`;
}

export function isLoginHost(hostname: string): boolean {
  return hostname.startsWith(LOGIN_PREFIX);
}

export function isValidSlug(slug: string): boolean {
  return SLUG_PATTERN.test(slug);
}

// Where a reporter goes after logging in. On the global login host the
// follow-up area lives on the organisation's own subdomain; everywhere else
// we already are on it. The session cookie is host-only, so the global login
// hands it over with a one-time token in the fragment: fragments are never
// sent to a server nor put in a Referer.
export function reportDashboardUrl(location: LocationParts, organisationSlug: string, handoff?: string): string | undefined {
  if (!isLoginHost(location.hostname)) return '/report/dashboard';
  if (!isValidSlug(organisationSlug)) return undefined;
  const appDomain = location.hostname.slice(LOGIN_PREFIX.length);
  const fragment = handoff ? `#handoff=${encodeURIComponent(handoff)}` : '';
  return `${location.protocol}//${organisationSlug}.${appDomain}${portSuffix(location.port)}/report/dashboard${fragment}`;
}
