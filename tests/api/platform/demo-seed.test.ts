import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { asc, eq } from "drizzle-orm";
import { organisations, reportForms, reportFormWidgets, reportSubmissions } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_FORM_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { verifyPassword } from "../../../api/lib/passwords.ts";
import { derivePages, publishProblems, type FormWidget } from "../../../api/shared/form-definition.ts";
import { WIDGET_TYPES } from "../../../api/shared/enums.ts";
import { cloneTemplate, type TestDatabase } from "../../setup/template.ts";
import { testKeyRing } from "../../helpers/sealed-text.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await cloneTemplate();
});
afterAll(() => database.drop());

describe("demo seed", () => {
  test("seeds once: two organisations, forms fit for the reporter journey, reports in several statuses", async () => {
    const db = database.handle.db;
    // No server runs here: the seed seals with the key ring made for this handle.
    testKeyRing(db);
    const first = await seedDemo(db);
    expect(first.seeded).toBe(true);
    expect((await seedDemo(db)).seeded).toBe(false);

    const orgs = await db.select().from(organisations).orderBy(asc(organisations.slug));
    expect(orgs.map((o) => [o.slug, o.name])).toEqual([
      ["demo", "Demo Organisation"],
      ["northwind", "Northwind"],
    ]);
    expect(orgs.find((o) => o.slug === "demo")!.generalEnquiryEnabled).toBe(true);

    for (const org of orgs) {
      const forms = await db.select().from(reportForms).where(eq(reportForms.organisationId, org.id));
      const main = forms.find((form) => form.type === "Custom" && form.pinHash === null)!;
      expect(main.deployedBuildId).not.toBeNull();
      expect(main.allowFileUploads && main.hasChat).toBe(true);
      const widgets = (await db.select().from(reportFormWidgets).where(eq(reportFormWidgets.buildId, main.deployedBuildId!)).orderBy(asc(reportFormWidgets.position))) as FormWidget[];
      expect(publishProblems(widgets)).toEqual([]);
      expect(new Set(widgets.map((w) => w.type))).toEqual(new Set(WIDGET_TYPES));
      expect(derivePages(widgets).length).toBeGreaterThanOrEqual(3);
      expect(widgets.map((w) => w.condition?.matchType).filter(Boolean).sort()).toEqual(["All", "Any"]);
      const statuses = new Set((await db.select().from(reportSubmissions).where(eq(reportSubmissions.organisationId, org.id))).map((s) => s.status));
      expect(statuses.size).toBeGreaterThanOrEqual(4);
    }

    const demo = orgs.find((o) => o.slug === "demo")!;
    const secured = (await db.select().from(reportForms).where(eq(reportForms.organisationId, demo.id))).find((form) => form.pinHash !== null)!;
    expect(await verifyPassword(secured.pinHash, DEMO_FORM_PASSWORD)).toBe(true);
    expect(first.reports.length).toBeGreaterThanOrEqual(10);
  });
});
