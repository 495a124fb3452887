import type { HostKind } from "../context.ts";
import { RESERVED_SLUGS } from "../shared/hosts.ts";

/** Subdomains that never name an organisation (one list with the slugs organisations are given). */
export const RESERVED_SUBDOMAINS = RESERVED_SLUGS;

export type ParsedHost = { kind: Exclude<HostKind, "organisation"> } | { kind: "organisation"; slug: string };

/**
 * Reads the Host header against APP_DOMAIN: `{slug}.{domain}` is an organisation, `login.` the
 * global report login, and `app.`, the bare domain or any other host (an address used by a load
 * balancer's health check, say) the product itself.
 */
export function parseHost(hostHeader: string | null | undefined, appDomain: string): ParsedHost {
  const host = (hostHeader ?? "").trim().toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "");
  if (host === appDomain || !host.endsWith(`.${appDomain}`)) return { kind: "app" };
  const sub = host.slice(0, -(appDomain.length + 1));
  if (sub === "login") return { kind: "report-login" };
  if (RESERVED_SUBDOMAINS.has(sub)) return { kind: "app" };
  return { kind: "organisation", slug: sub };
}

/** Slugs are what a subdomain can be: lowercase letters, digits and inner hyphens. */
export function isValidSlug(slug: string): boolean {
  return /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(slug) && !RESERVED_SUBDOMAINS.has(slug);
}
