import { eq, like, or } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { organisations, roles } from "../../../db/schema/index.ts";
import type { RoleName } from "../../shared/enums.ts";

/**
 * Subdomains that never name an organisation (the host router's list: app, login and the product's
 * own name). A new organisation's slug must never be one, or its pages would be unreachable.
 */
const RESERVED_SLUGS = new Set(["app", "login", "lantern"]);
const MAX_SLUG_BASE = 40;

/** A subdomain from the organisation's name: lower-case letters, digits and inner hyphens. */
export function slugBase(name: string): string {
  const base = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+/, "")
    .slice(0, MAX_SLUG_BASE)
    .replace(/-+$/, "");
  if (!base) return "organisation";
  return RESERVED_SLUGS.has(base) ? `${base}-organisation` : base;
}

/** The first free slug of `base`, `base-2`, `base-3`…; the unique index still settles a race. */
export async function freeSlug(tx: Database, name: string): Promise<string> {
  const base = slugBase(name);
  const taken = new Set((await tx.select({ slug: organisations.slug }).from(organisations).where(or(eq(organisations.slug, base), like(organisations.slug, `${base}-%`)))).map((row) => row.slug));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

export async function roleId(tx: Database, name: RoleName): Promise<string> {
  const [role] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.name, name)).limit(1);
  return role!.id;
}
