import type { RoleName } from "../../api/shared/enums.ts";

/**
 * The demo data's fixed credentials, in one place so the README, the CLI and end-to-end tests
 * quote the same values the seed writes. They are public by design: never seed a real instance.
 */

/** Every seeded staff account signs in with this. */
export const DEMO_PASSWORD = "lantern-demo-1";

/** The password of the Demo organisation's secured form ("Confidential Finance Concern"). */
export const DEMO_FORM_PASSWORD = "open-sesame-1";

/**
 * Every seeded report's password. It is already in the canonical shape generated passwords take
 * (Crockford base32, groups of five), so it matches whether or not the login path normalises what
 * the reporter types: a free-form value such as "demo-report-1" would be rewritten to
 * "DEM0-REP0RT-1" by normalisation and never verify. It reads "DEMO REPORT PASS 1".
 */
export const DEMO_REPORT_PASSWORD = "DEM0R-EP0RT-PASS0-00001";

export interface DemoOrganisationSpec {
  slug: string;
  name: string;
  domain: string;
}

export const DEMO_ORGANISATIONS = {
  demo: { slug: "demo", name: "Demo Organisation", domain: "demo.test" },
  northwind: { slug: "northwind", name: "Northwind", domain: "northwind.test" },
} as const satisfies Record<string, DemoOrganisationSpec>;

export type DemoOrganisationKey = keyof typeof DEMO_ORGANISATIONS;

export interface DemoAccount {
  email: string;
  firstName: string;
  lastName: string;
  role: RoleName;
  /** Organisation slug; null for the super admin, who belongs to none. */
  organisation: string | null;
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { email: "admin@lantern.test", firstName: "Alex", lastName: "Morgan", role: "SUPER_ADMIN", organisation: null },
  { email: "owner@demo.test", firstName: "Olivia", lastName: "Bennett", role: "ORGANISATION_OWNER", organisation: "demo" },
  { email: "admin@demo.test", firstName: "Marcus", lastName: "Webb", role: "ORGANISATION_ADMIN", organisation: "demo" },
  { email: "member@demo.test", firstName: "Priya", lastName: "Raman", role: "MEMBER", organisation: "demo" },
  { email: "guest@demo.test", firstName: "Tom", lastName: "Gallagher", role: "GUEST_MEMBER", organisation: "demo" },
  { email: "owner@northwind.test", firstName: "Hannah", lastName: "Fischer", role: "ORGANISATION_OWNER", organisation: "northwind" },
  { email: "admin@northwind.test", firstName: "Daniel", lastName: "Okafor", role: "ORGANISATION_ADMIN", organisation: "northwind" },
  { email: "member@northwind.test", firstName: "Sofia", lastName: "Marquez", role: "MEMBER", organisation: "northwind" },
  { email: "guest@northwind.test", firstName: "Liam", lastName: "Chen", role: "GUEST_MEMBER", organisation: "northwind" },
];
