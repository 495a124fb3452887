import { RESERVED_SLUGS } from "../../shared/hosts.ts";

/**
 * An organisation's slug is its subdomain ({slug}.{domain}), made from its name when it is created
 * and never changed after (its links are printed on posters and intranets). Lowercase letters,
 * digits and inner hyphens, at most 50 characters; the reserved subdomains ('app', 'login' and the
 * product's name) are never used. A name with nothing usable in it becomes 'organisation'.
 */
const MAX_SLUG_LENGTH = 50;
const MAX_TRIES = 50;

export function baseSlug(name: string): string {
  const ascii = name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  const slug = ascii
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/, "");
  return slug === "" ? "organisation" : slug;
}

/** The slugs to try in order: the name's own, then with -2, -3 … (a reserved word always gets a number). */
export function* slugCandidates(name: string): Generator<string> {
  const base = baseSlug(name);
  if (!RESERVED_SLUGS.has(base)) yield base;
  for (let n = 2; n < MAX_TRIES + 2; n += 1) {
    const suffix = `-${n}`;
    yield `${base.slice(0, MAX_SLUG_LENGTH - suffix.length).replace(/-+$/, "")}${suffix}`;
  }
}
