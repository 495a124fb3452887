import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { parse } from "graphql";
import { schema } from "../../../api/graphql/schema.ts";
import { keptAnswerKey } from "../../../api/graphql/viewer-answers.ts";
import { VIEWER_QUERY as CONSOLE_VIEWER } from "../../../site/src/admin/viewer.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { startInstancePair, type TestServer } from "../../helpers/server.ts";
import { anonymous, clientWithCookie, loginAs, type StaffClient } from "../../helpers/session.ts";

/**
 * The `viewer` field answers from a per-instance copy of the user's row until that user changes
 * (api/modules/users/viewer-cache.ts). What a person notices is only that every change shows:
 * their own at once, anyone else's (another admin, another instance, an operator's SQL) as soon as
 * the database has announced it. Two instances need one Postgres; on PGlite both are the same one.
 */
let first: TestServer;
let second: TestServer;
let pair: Awaited<ReturnType<typeof startInstancePair>>;

const VIEWER = "{ viewer { id firstName lastName role { name } organisation { id name } } }";
const VIEWER_NAME_ONLY = "{ viewer { firstName } }";
const CHANGE_NAME = "mutation ($first: String!) { changeDetails(input: { firstName: $first }) { id firstName } }";
const USER_UPDATE = "mutation ($id: ID!, $input: UserUpdateInput!) { userUpdate(id: $id, input: $input) { id firstName } }";

interface Viewer {
  id: string;
  firstName: string;
  lastName: string;
  role: { name: string };
  organisation: { id: string; name: string } | null;
}

beforeAll(async () => {
  pair = await startInstancePair();
  ({ first, second } = pair);
}, 60_000);
afterAll(() => pair.stop());

async function viewerOf(client: StaffClient, query = VIEWER): Promise<Viewer | null> {
  const result = await client.gql<{ viewer: Viewer | null }>(query);
  expect(result.errors).toBeUndefined();
  return result.data?.viewer ?? null;
}

/** Asks until the answer holds: another person's change arrives by the database's event, in milliseconds. */
async function eventually(client: StaffClient, holds: (viewer: Viewer | null) => boolean): Promise<Viewer | null> {
  let viewer = await viewerOf(client);
  for (let tries = 0; tries < 100 && !holds(viewer); tries += 1) {
    await Bun.sleep(20);
    viewer = await viewerOf(client);
  }
  return viewer;
}

describe("the viewer's cached row", () => {
  test("is kept after the first answer, and every instance answers the same", async () => {
    const member = await loginAs(first, "member@demo.test", DEMO_PASSWORD);
    const answer = await viewerOf(member);
    expect(answer?.role.name).toBe("MEMBER");
    expect(first.lantern.services.viewerCache.size).toBeGreaterThan(0);
    expect(await viewerOf(member)).toEqual(answer);
    expect(await viewerOf(clientWithCookie(second, member.cookie))).toEqual(answer);
  });

  test("shows the person's own change at once, on the instance that made it, for every selection", async () => {
    const admin = await loginAs(first, "admin@demo.test", DEMO_PASSWORD);
    expect((await viewerOf(admin))?.firstName).toBeTruthy();
    expect((await viewerOf(admin, VIEWER_NAME_ONLY))?.firstName).toBeTruthy();
    for (const name of ["Ada", "Grace", "Katherine"]) {
      const changed = await admin.gql(CHANGE_NAME, { first: name });
      expect(changed.errors).toBeUndefined();
      expect((await viewerOf(admin))?.firstName).toBe(name);
      expect((await viewerOf(admin, VIEWER_NAME_ONLY))?.firstName).toBe(name);
    }
  });

  test("shows a change made on another instance", async () => {
    const owner = await loginAs(first, "owner@demo.test", DEMO_PASSWORD);
    const ownerElsewhere = clientWithCookie(second, owner.cookie);
    await viewerOf(ownerElsewhere);
    const changed = await owner.gql(CHANGE_NAME, { first: "Rosalind" });
    expect(changed.errors).toBeUndefined();
    expect((await eventually(ownerElsewhere, (viewer) => viewer?.firstName === "Rosalind"))?.firstName).toBe("Rosalind");
  });

  test("shows another admin's change to the person, and an operator's change made in SQL", async () => {
    const owner = await loginAs(first, "owner@demo.test", DEMO_PASSWORD);
    const member = await loginAs(second, "member@demo.test", DEMO_PASSWORD);
    const before = await viewerOf(member);
    const updated = await owner.gql(USER_UPDATE, { id: before!.id, input: { firstName: "Dorothy" } });
    expect(updated.errors).toBeUndefined();
    expect((await eventually(member, (viewer) => viewer?.firstName === "Dorothy"))?.firstName).toBe("Dorothy");

    // Not through Lantern at all: the trigger on users announces it all the same.
    await first.db.execute(sql`update users set last_name = 'Hodgkin' where id = ${before!.id}`);
    expect((await eventually(member, (viewer) => viewer?.lastName === "Hodgkin"))?.lastName).toBe("Hodgkin");
  });

  test("shows a renamed organisation", async () => {
    const owner = await loginAs(first, "owner@demo.test", DEMO_PASSWORD);
    const onSecond = clientWithCookie(second, owner.cookie);
    const before = await viewerOf(onSecond);
    expect(before?.organisation?.name).toBeTruthy();
    await first.db.execute(sql`update organisations set name = 'Renamed Organisation' where id = ${before!.organisation!.id}`);
    // An organisation changed outside Lantern is announced by nobody: the copy's age bounds it. Through
    // Lantern, the organisation's own event ends it; that event is what this sends.
    const applied = await first.db.transaction((tx) =>
      first.lantern.services.invalidator.announce(tx, { organisationIds: [before!.organisation!.id] }),
    );
    await applied();
    expect((await eventually(onSecond, (viewer) => viewer?.organisation?.name === "Renamed Organisation"))?.organisation?.name).toBe(
      "Renamed Organisation",
    );
  });

  test("is no one's once signed out, and nothing for a stranger", async () => {
    const member = await loginAs(first, "member@demo.test", DEMO_PASSWORD);
    expect(await viewerOf(member)).not.toBeNull();
    const logout = await member.fetch("/api/auth/logout", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(logout.status).toBe(200);
    expect(await viewerOf(member)).toBeNull();
    expect(await viewerOf(clientWithCookie(second, member.cookie))).toBeNull();
    expect(await viewerOf(anonymous(first))).toBeNull();
  });

  test("answers the console's viewer whole from the copy, and a role changed by an admin shows in it", async () => {
    const owner = await loginAs(first, "owner@demo.test", DEMO_PASSWORD);
    const member = await loginAs(second, "member@demo.test", DEMO_PASSWORD);
    const asked = async () => {
      const result = await member.gql<{ viewer: { id: string; role: { name: string; permissions: string[] }; pass2FA: boolean } }>(CONSOLE_VIEWER);
      expect(result.errors).toBeUndefined();
      return result.data!.viewer;
    };
    const before = await asked();
    expect(before.role.name).toBe("MEMBER");
    expect(before.pass2FA).toBe(true);
    const key = keptAnswerKey(schema, parse(CONSOLE_VIEWER), CONSOLE_VIEWER, null, null, "staff")!;
    expect(second.lantern.services.viewerCache.read(before.id, key)).toEqual({ viewer: before });
    expect(await asked()).toEqual(before);

    const roles = await owner.gql<{ roles: { id: string; name: string }[] }>("{ roles { id name } }");
    const admin = roles.data!.roles.find((role) => role.name === "ORGANISATION_ADMIN")!;
    const updated = await owner.gql(USER_UPDATE, { id: before.id, input: { roleID: admin.id } });
    expect(updated.errors).toBeUndefined();
    let after = await asked();
    for (let tries = 0; tries < 100 && after.role.name !== "ORGANISATION_ADMIN"; tries += 1) {
      await Bun.sleep(20);
      after = await asked();
    }
    expect(after.role.name).toBe("ORGANISATION_ADMIN");
    expect(after.role.permissions).not.toEqual(before.role.permissions);
  });
});
