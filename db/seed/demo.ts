import { eq, sql } from "drizzle-orm";
import type { Database } from "../client.ts";
import { organisations, userActivities } from "../schema/index.ts";
import { KeyRing } from "../../api/lib/key-ring.ts";
import { hashPassword } from "../../api/lib/passwords.ts";
import { DEMO_FORM_PASSWORD, DEMO_ORGANISATIONS, DEMO_PASSWORD, DEMO_REPORT_PASSWORD } from "./demo-accounts.ts";
import { CONFIDENTIAL_FINANCE_FORM, GENERAL_ENQUIRY_FORM, SAFETY_COMPLIANCE_FORM, WORKPLACE_MISCONDUCT_FORM } from "./demo-forms.ts";
import { seedPeople, type SeededOrganisation } from "./demo-people.ts";
import { demoScenarios } from "./demo-report-scenarios.ts";
import { seedReports, type DemoReportCredential } from "./demo-reports.ts";
import { daysAgo, utcDayStart } from "./demo-time.ts";
import { insertPublishedForm, type PublishedForm } from "./publish-form.ts";

export type { DemoReportCredential } from "./demo-reports.ts";

export interface SeedDemoResult {
  seeded: boolean;
  /** Reporter logins for the seeded reports; empty when nothing was seeded. */
  reports: DemoReportCredential[];
}

/** Arbitrary but fixed, distinct from the migration lock: serialises concurrent seeders. */
const SEED_LOCK_KEY = 0x4c616e64; // "Land"

/**
 * Seeds the demo: a super admin, the organisations "Demo Organisation" and "Northwind" with four
 * staff each, published forms and reports in every state. All of it is one transaction, and it
 * does nothing when the `demo` organisation exists, so restarts and repeated runs are safe.
 * `db` is a root handle a server or the CLI made a key ring for: the reporters' words are sealed.
 */
export async function seedDemo(db: Database): Promise<SeedDemoResult> {
  if (await demoExists(db)) return { seeded: false, reports: [] };
  const ring = KeyRing.of(db);

  // Argon2id costs ~50 ms a hash, so each distinct password is hashed once, outside the transaction.
  const [userHash, formHash, reportHash] = await Promise.all([
    hashPassword(DEMO_PASSWORD),
    hashPassword(DEMO_FORM_PASSWORD),
    hashPassword(DEMO_REPORT_PASSWORD),
  ]);

  return db.transaction(async (tx) => {
    // Two instances starting on one empty database would both pass the check above.
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    if (await demoExists(tx)) return { seeded: false, reports: [] };

    const now = new Date();
    const scenarios = demoScenarios(now);
    const seededOrganisations = await seedPeople(tx, userHash, now);
    const reports: DemoReportCredential[] = [];
    for (const organisation of seededOrganisations) {
      const forms = await seedForms(tx, organisation, formHash, now);
      // Asked inside the transaction: a data key made for the organisation here rolls back with the seed.
      const sealer = await ring.sealer(tx, organisation.id);
      reports.push(
        ...(await seedReports(tx, { organisation, scenarios: scenarios[organisation.key], forms, password: DEMO_REPORT_PASSWORD, passwordHash: reportHash, now, sealer })),
      );
      await tx.insert(userActivities).values({
        organisationId: organisation.id,
        userId: null,
        objectType: "Organisation",
        objectId: organisation.id,
        action: "SeedDemo",
        metadata: { name: organisation.name },
        // An entry without a person keeps its day only, as the server writes them (decision 064).
        createdAt: utcDayStart(now),
      });
    }
    return { seeded: true, reports };
  });
}

export async function demoExists(db: Database): Promise<boolean> {
  const [existing] = await db
    .select({ id: organisations.id })
    .from(organisations)
    .where(eq(organisations.slug, DEMO_ORGANISATIONS.demo.slug))
    .limit(1);
  return existing !== undefined;
}

/** Demo gets the misconduct form, a secured form and the enquiry form; Northwind its one form. */
async function seedForms(
  tx: Database,
  organisation: SeededOrganisation,
  formHash: string,
  now: Date,
): Promise<{ main: PublishedForm; enquiry?: PublishedForm }> {
  const base = { organisationId: organisation.id, authorUserId: organisation.ownerId };
  if (organisation.key === "northwind") {
    return { main: await insertPublishedForm(tx, { ...base, spec: SAFETY_COMPLIANCE_FORM, createdAt: daysAgo(95, now) }) };
  }
  const main = await insertPublishedForm(tx, { ...base, spec: WORKPLACE_MISCONDUCT_FORM, createdAt: daysAgo(100, now) });
  await insertPublishedForm(tx, { ...base, spec: CONFIDENTIAL_FINANCE_FORM, pinHash: formHash, createdAt: daysAgo(60, now) });
  const enquiry = await insertPublishedForm(tx, { ...base, spec: GENERAL_ENQUIRY_FORM, createdAt: daysAgo(100, now) });
  return { main, enquiry };
}
