import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { findFirstById, shapeOf } from "../../../api/graphql/prepared-selections.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { anonymous, loginAs, type StaffClient } from "../../helpers/session.ts";

/**
 * The viewer is read through a query prepared once per selection: whichever fields are asked, in
 * whichever order and however often, each answer holds exactly the signed-in user's own values.
 */
let server: TestServer;
let owner: StaffClient;
let member: StaffClient;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  owner = await loginAs(server, "owner@demo.test", DEMO_PASSWORD);
  member = await loginAs(server, "member@demo.test", DEMO_PASSWORD);
});
afterAll(async () => {
  await server.stop();
});

type Viewer = { viewer: Record<string, unknown> | null };

describe("viewer, prepared per selection", () => {
  test("the same selection asked by two users, twice each, answers each user's own row", async () => {
    const query = "{ viewer { email role { name } } }";
    for (let round = 0; round < 2; round += 1) {
      expect((await owner.gql<Viewer>(query)).data?.viewer).toEqual({ email: "owner@demo.test", role: { name: "ORGANISATION_OWNER" } });
      expect((await member.gql<Viewer>(query)).data?.viewer).toEqual({ email: "member@demo.test", role: { name: "MEMBER" } });
    }
  });

  test("another selection gets its own fields, nested relations included", async () => {
    const answer = await owner.gql<Viewer>("{ viewer { firstName organisation { slug } role { label } } }");
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.viewer).toMatchObject({ organisation: { slug: "demo" }, role: { label: "Owner" } });
    expect(Object.keys(answer.data!.viewer!).sort()).toEqual(["firstName", "organisation", "role"]);
  });

  test("denied: without a session the viewer is null", async () => {
    expect((await anonymous(server).gql<Viewer>("{ viewer { email } }")).data?.viewer).toBeNull();
  });

  test("a query shape holding SQL is run as it is, not prepared", async () => {
    const row = await server.db.query.users.findFirst({ where: { email: "owner@demo.test" }, columns: { id: true } });
    const found = await findFirstById(
      server.db,
      row!.id,
      (where) => ({ columns: { email: true }, extras: { shout: sql<string>`upper(${sql.raw('"email"')})` }, where }),
      (config) => server.db.query.users.findFirst(config as never) as never,
    );
    expect(found).toMatchObject({ email: "owner@demo.test", shout: "OWNER@DEMO.TEST" });
  });
});

describe("the key a query shape is prepared under", () => {
  const byId = (eq: unknown) => ({ columns: { id: true }, with: { role: { columns: { name: true } } }, where: { id: { eq } } });

  test("plain data keys by its content; a key left undefined is the key left out", () => {
    expect(shapeOf(byId(sql.placeholder("id")))).toBe(shapeOf(byId(sql.placeholder("id"))));
    expect(shapeOf({ ...byId(sql.placeholder("id")), orderBy: undefined })).toBe(shapeOf(byId(sql.placeholder("id"))));
    expect(shapeOf(byId(sql.placeholder("id")))).not.toBe(shapeOf({ ...byId(sql.placeholder("id")), columns: { id: true, email: true } }));
  });

  test("a placeholder never shares a key with a plain object that writes alike, nor with another name", () => {
    const placeholder = shapeOf(byId(sql.placeholder("id")));
    expect(placeholder).not.toBeNull();
    expect(shapeOf(byId({ name: "id" }))).not.toBe(placeholder);
    expect(shapeOf(byId(sql.placeholder("other")))).not.toBe(placeholder);
    expect(shapeOf({ a: sql.placeholder("id"), b: { name: "id" } })).not.toBe(shapeOf({ a: { name: "id" }, b: sql.placeholder("id") }));
  });

  test("anything but plain data has no key, so it is run as it is", () => {
    for (const inside of [sql`now()`, new Date(0), () => 1, Number.NaN, Number.POSITIVE_INFINITY, [1, undefined], 1n, Symbol("s")]) {
      expect(shapeOf(byId(inside))).toBeNull();
    }
  });
});
