import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { coupons, organisations, productPlans, userActivities } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { PAYMENT_NOT_AVAILABLE } from "../../../api/shared/messages.ts";
import { confirmationCode, OnboardingBrowser, signUpBody } from "../../helpers/onboarding.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { anonymous, demoStaff, type DemoStaff } from "../../helpers/session.ts";

let server: TestServer;
let staff: DemoStaff;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  staff = await demoStaff(server);
});
afterAll(() => server.stop());

const CREATE = `mutation ($input: ProductPlanInput!) { productPlanCreate(input: $input) { id name seats price priceCents available } }`;
const UPDATE = `mutation ($id: ID!, $input: ProductPlanInput!) { productPlanUpdate(id: $id, input: $input) { id name seats price } }`;
const ARCHIVE = `mutation ($id: ID!) { productPlanArchive(id: $id) { archived } }`;
const UNARCHIVE = `mutation ($id: ID!) { productPlanUnarchive(id: $id) { archived } }`;
const LIST = `query ($filter: ListFilter) { productPlans(filter: $filter) { total list { id name } } }`;
const GET = `query ($id: ID!) { productPlanGet(id: $id) { id name seats price available } }`;
const COUPON = `query ($code: String!) { couponGet(code: $code) { id name amountOffDollars amountOffCents percentOff } }`;

async function plan(input: { name: string; seats: number; price: number }): Promise<string> {
  const result = await staff.superAdmin.gql<{ productPlanCreate: { id: string } }>(CREATE, { input });
  return result.data!.productPlanCreate.id;
}

async function signUpOn(productPlanID: string, couponCode = "") {
  const browser = new OnboardingBrowser(server);
  const body = signUpBody({ productPlanID });
  const started = await browser.start(body);
  expect(started.status).toBe(200);
  const code = await confirmationCode(server, body.email as string);
  return browser.finish({ prospectID: started.body.prospectID, token: code, cardToken: "", couponCode });
}

describe("product plans", () => {
  test("a super admin creates, updates, archives and unarchives them, each audited", async () => {
    const created = await staff.superAdmin.gql<{ productPlanCreate: { id: string; price: number; priceCents: number; available: boolean } }>(CREATE, { input: { name: "Team", seats: 25, price: 49.5 } });
    expect(created.data?.productPlanCreate).toMatchObject({ price: 49.5, priceCents: 4950, available: false });
    const id = created.data!.productPlanCreate.id;
    expect((await staff.superAdmin.gql(UPDATE, { id, input: { name: "Team+", seats: 30, price: 0 } })).data).toEqual({ productPlanUpdate: { id, name: "Team+", seats: 30, price: 0 } });
    expect((await staff.superAdmin.gql(ARCHIVE, { id })).data).toEqual({ productPlanArchive: { archived: true } });
    expect((await staff.superAdmin.gql(UNARCHIVE, { id })).data).toEqual({ productPlanUnarchive: { archived: false } });
    const audit = await server.db.select({ action: userActivities.action }).from(userActivities).where(eq(userActivities.objectId, id));
    expect(audit.map((entry) => entry.action).sort()).toEqual(["ProductPlanArchive", "ProductPlanCreate", "ProductPlanUnarchive", "ProductPlanUpdate"]);
  });

  test("nobody else may change them, and an owner may only look", async () => {
    const id = await plan({ name: "Solo", seats: 3, price: 0 });
    for (const client of [staff.owner, staff.admin, staff.member, staff.guest, anonymous(server)]) {
      for (const [query, variables] of [
        [CREATE, { input: { name: "X", seats: 1, price: 0 } }],
        [UPDATE, { id, input: { name: "X", seats: 1, price: 0 } }],
        [ARCHIVE, { id }],
        [UNARCHIVE, { id }],
      ] as const) {
        const result = await client.gql(query, variables);
        expect(result.errors?.length).toBe(1);
      }
    }
    expect((await staff.owner.gql(LIST)).errors).toBeUndefined();
    for (const client of [staff.admin, staff.member, staff.guest, anonymous(server)]) expect((await client.gql(LIST)).errors?.length).toBe(1);
    const [row] = await server.db.select({ name: productPlans.name, archived: productPlans.archived }).from(productPlans).where(eq(productPlans.id, id));
    expect(row).toEqual({ name: "Solo", archived: false });
  });

  test("bad input is refused with a message, never a 500", async () => {
    for (const input of [
      { name: "", seats: 1, price: 0 },
      { name: "x".repeat(1_000_000), seats: 1, price: 0 },
      { name: "Nul\u0000", seats: 1, price: 0 },
      { name: "A", seats: 0, price: 0 },
      { name: "A", seats: 1.5, price: 0 },
      { name: "A", seats: 1, price: -1 },
      { name: "A", seats: "many", price: 0 },
    ]) {
      const result = await staff.superAdmin.gql(CREATE, { input });
      expect(result.errors?.[0]?.message).toBeString();
    }
    expect((await staff.superAdmin.gql(ARCHIVE, { id: "not-an-id" })).errors?.[0]?.message).toBe("Product plan is not found");
  });

  test("anyone may read a live plan by id (the sign-up page), not an archived one", async () => {
    const id = await plan({ name: "Starter", seats: 5, price: 0 });
    expect((await anonymous(server).gql(GET, { id })).data).toEqual({ productPlanGet: { id, name: "Starter", seats: 5, price: 0, available: true } });
    await staff.superAdmin.gql(ARCHIVE, { id });
    expect((await anonymous(server).gql(GET, { id })).data).toEqual({ productPlanGet: null });
    expect((await staff.superAdmin.gql(GET, { id })).data?.productPlanGet).not.toBeNull();
  });
});

describe("coupons and payment at sign-up", () => {
  test("couponGet shows a live coupon by code, whatever its case, and nothing for others", async () => {
    await server.db.insert(coupons).values([
      { code: "HALF", name: "Half off", percentOff: 50 },
      { code: "TENFIFTY", name: "$10.50 off", amountOffCents: 1050 },
      { code: "OLD", name: "Gone", percentOff: 10, archived: true },
    ]);
    expect((await anonymous(server).gql(COUPON, { code: "half" })).data?.couponGet).toMatchObject({ name: "Half off", percentOff: 50, amountOffDollars: null });
    expect((await anonymous(server).gql(COUPON, { code: "TENFIFTY" })).data?.couponGet).toMatchObject({ amountOffDollars: 10, amountOffCents: 50, percentOff: null });
    for (const code of ["OLD", "nope"]) expect((await anonymous(server).gql(COUPON, { code })).data).toEqual({ couponGet: null });
    // A megabyte of code is stopped at the door with a message (the GraphQL input limits), never a 500.
    expect((await anonymous(server).gql(COUPON, { code: "x".repeat(1_000_000) })).errors?.[0]?.message).toBeString();
  });

  test("a free plan finishes with its seats; a priced plan is refused while no payment provider is set", async () => {
    const free = await plan({ name: "Free", seats: 7, price: 0 });
    const finished = await signUpOn(free);
    expect(finished.status).toBe(200);
    const viewer = await finished.client!.gql<{ viewer: { organisation: { id: string } } }>(`{ viewer { organisation { id } } }`);
    const [organisation] = await server.db.select({ seats: organisations.openSeatNumber }).from(organisations).where(eq(organisations.id, viewer.data!.viewer.organisation.id));
    expect(organisation!.seats).toBe(7);

    const paid = await plan({ name: "Business", seats: 50, price: 99 });
    expect(await signUpOn(paid)).toMatchObject({ status: 400, body: { error: PAYMENT_NOT_AVAILABLE } });
  });

  test("a coupon that makes a priced plan free lets it finish; an unknown coupon is refused", async () => {
    await server.db.insert(coupons).values({ code: "ALLFREE", name: "Everything free", percentOff: 100 });
    const paid = await plan({ name: "Pro", seats: 20, price: 20 });
    expect(await signUpOn(paid, "no-such-coupon")).toMatchObject({ status: 400, body: { error: "This coupon code is not valid." } });
    expect((await signUpOn(paid, "allfree")).status).toBe(200);
  });
});
