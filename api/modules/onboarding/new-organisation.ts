import { eq, like, or } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { organisations, roles } from "../../../db/schema/index.ts";
import type { RoleName } from "../../shared/enums.ts";
import { baseSlug, slugCandidates } from "../organisations/slugs.ts";

/**
 * The first free slug among the name's candidates (organisations/slugs.ts: the name's own, then -2,
 * -3 …, never a reserved subdomain); the unique index still settles a race.
 */
export async function freeSlug(tx: Database, name: string): Promise<string> {
  const base = baseSlug(name);
  const taken = new Set((await tx.select({ slug: organisations.slug }).from(organisations).where(or(eq(organisations.slug, base), like(organisations.slug, `${base}-%`)))).map((row) => row.slug));
  for (const slug of slugCandidates(name)) if (!taken.has(slug)) return slug;
  // Every numbered candidate is taken: a random tail still leaves a readable address.
  return `${base.slice(0, 40).replace(/-+$/, "")}-${crypto.randomUUID().slice(0, 8)}`;
}

export async function roleId(tx: Database, name: RoleName): Promise<string> {
  const [role] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.name, name)).limit(1);
  return role!.id;
}
