import type { Database } from "../client.ts";
import { organisations, roles, users } from "../schema/index.ts";
import type { RoleName } from "../../api/shared/enums.ts";
import { DEMO_ACCOUNTS, DEMO_ORGANISATIONS, type DemoOrganisationKey } from "./demo-accounts.ts";
import { daysAgo } from "./demo-time.ts";

/** The ids later seed steps need: an organisation and its staff by role. */
export interface SeededOrganisation {
  key: DemoOrganisationKey;
  id: string;
  slug: string;
  name: string;
  ownerId: string;
  adminId: string;
  memberId: string;
  guestId: string;
}

type OrganisationSettings = Omit<typeof organisations.$inferInsert, "id" | "name" | "slug">;

/** Demo shows every reporter-portal feature switched on; Northwind shows the plain defaults. */
const SETTINGS: Record<DemoOrganisationKey, OrganisationSettings> = {
  demo: {
    abn: "51 824 753 556",
    generalEnquiryEnabled: true,
    generalEnquiryLabel: "Ask a Question",
    generalEnquiryWelcomeMessageContent:
      "Not ready to make a report? Ask us a question in confidence. You will get a reference and password to read our reply, and you stay anonymous.",
    portalWelcomeMessageEnabled: true,
    portalWelcomeMessageContent:
      "Welcome to the Demo Organisation speak-up portal. Reports are confidential and you can stay anonymous. Choose a form below to get started.",
    openSeatNumber: 10,
  },
  northwind: {
    abn: "33 051 775 556",
    fontFamily: "Roboto",
    generalEnquiryEnabled: false,
    portalWelcomeMessageEnabled: false,
    staleMessageIntervalNumber: 2,
    openSeatNumber: 5,
  },
};

/** Inserts the super admin, both organisations and their four staff accounts each. */
export async function seedPeople(tx: Database, passwordHash: string, now: Date): Promise<SeededOrganisation[]> {
  const roleIds = await loadRoleIds(tx);
  const orgIds = new Map<string, string>();
  for (const key of Object.keys(DEMO_ORGANISATIONS) as DemoOrganisationKey[]) {
    const spec = DEMO_ORGANISATIONS[key];
    const [row] = await tx
      .insert(organisations)
      .values({ name: spec.name, slug: spec.slug, ...SETTINGS[key], createdAt: daysAgo(120, now), updatedAt: daysAgo(120, now) })
      .returning({ id: organisations.id });
    orgIds.set(spec.slug, row!.id);
  }

  const userIds = new Map<string, string>();
  for (const account of DEMO_ACCOUNTS) {
    const values = {
      email: account.email,
      firstName: account.firstName,
      lastName: account.lastName,
      passwordHash,
      roleId: roleIds.get(account.role)!,
      organisationId: account.organisation === null ? null : orgIds.get(account.organisation)!,
      verified: true,
      createdAt: daysAgo(110, now),
      updatedAt: daysAgo(110, now),
    };
    // The super admin outlives the demo organisations (deleting them cascades to their staff
    // only) and may have been created by hand with the same email, so an existing one is kept.
    if (account.organisation === null) {
      await tx.insert(users).values(values).onConflictDoNothing();
      continue;
    }
    const [row] = await tx.insert(users).values(values).returning({ id: users.id });
    userIds.set(account.email, row!.id);
  }

  const seeded: SeededOrganisation[] = [];
  for (const key of Object.keys(DEMO_ORGANISATIONS) as DemoOrganisationKey[]) {
    const { slug, name, domain } = DEMO_ORGANISATIONS[key];
    const userId = (local: string) => {
      const id = userIds.get(`${local}@${domain}`);
      if (!id) throw new Error(`Demo seed: no ${local}@${domain} in DEMO_ACCOUNTS`);
      return id;
    };
    seeded.push({
      key,
      id: orgIds.get(slug)!,
      slug,
      name,
      ownerId: userId("owner"),
      adminId: userId("admin"),
      memberId: userId("member"),
      guestId: userId("guest"),
    });
  }
  return seeded;
}

/** Role ids are random per database, so they are looked up by name; migrateDatabase inserts them. */
async function loadRoleIds(tx: Database): Promise<Map<RoleName, string>> {
  const rows = await tx.select({ id: roles.id, name: roles.name }).from(roles);
  const ids = new Map(rows.map((row) => [row.name, row.id] as const));
  for (const account of DEMO_ACCOUNTS) {
    if (!ids.has(account.role)) throw new Error(`Demo seed: role ${account.role} is missing; run migrateDatabase first`);
  }
  return ids;
}
