import { describe, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { reportSubmissionAssignees, reportSubmissions, userActivities, users } from "../../../db/schema/index.ts";
import { createReportForTests } from "./report-for-tests.ts";
import { codeOf, messageOf, usersWorld } from "./users-fixture.ts";

/** `users` with every argument of spec §7, and POST /api/admin/export/users. */
const world = usersWorld();

type Listed = { users: { total: number; list: { id: string; firstName: string; role: { name: string } }[] } };
const LIST = `query ($roleName: RoleName, $includeSelf: Boolean, $organisationID: ID, $includeGuestMembers: Boolean, $reportSubmissionID: ID, $reportSubmissionUnassigned: Boolean, $sortBy: UserSortBy, $ascending: Boolean, $search: String, $limit: Int, $offset: Int) {
  users(roleName: $roleName, includeSelf: $includeSelf, organisationID: $organisationID, includeGuestMembers: $includeGuestMembers, reportSubmissionID: $reportSubmissionID, reportSubmissionUnassigned: $reportSubmissionUnassigned, sortBy: $sortBy, ascending: $ascending, search: $search, limit: $limit, offset: $offset) {
    total list { id firstName role { name } }
  }
}`;

describe("users", () => {
  test("roleName, includeSelf, search, sorting and paging", async () => {
    const owner = world.as.ORGANISATION_OWNER;
    const all = (await owner.gql<Listed>(LIST, {})).data!.users;
    expect(all.list.some((user) => user.id === owner.userId)).toBe(true);
    const withoutSelf = (await owner.gql<Listed>(LIST, { includeSelf: false })).data!.users;
    expect(withoutSelf.total).toBe(all.total - 1);
    expect(withoutSelf.list.some((user) => user.id === owner.userId)).toBe(false);
    const admins = (await owner.gql<Listed>(LIST, { roleName: "ORGANISATION_ADMIN" })).data!.users;
    expect(admins.list.every((user) => user.role.name === "ORGANISATION_ADMIN")).toBe(true);
    expect(admins.total).toBeGreaterThan(0);

    await world.server.db.update(users).set({ firstName: "Aaron" }).where(eq(users.id, world.as.MEMBER.userId));
    await world.server.db.update(users).set({ firstName: "Zelda" }).where(eq(users.id, world.as.ORGANISATION_ADMIN.userId));
    const ascending = (await owner.gql<Listed>(LIST, { sortBy: "alphabetical", ascending: true })).data!.users.list.map((user) => user.firstName);
    const descending = (await owner.gql<Listed>(LIST, { sortBy: "alphabetical", ascending: false })).data!.users.list.map((user) => user.firstName);
    expect(ascending[0]).toBe("Aaron");
    expect(descending[0]).toBe("Zelda");
    const page = (await owner.gql<Listed>(LIST, { limit: 2, offset: 1, sortBy: "alphabetical" })).data!.users;
    expect(page.list.map((user) => user.firstName)).toEqual(ascending.slice(1, 3));
    expect((await owner.gql<Listed>(LIST, { search: "zeld" })).data!.users.list.map((user) => user.firstName)).toEqual(["Zelda"]);
  });

  test("a report's team, or everyone not on it; another organisation's report is not found", async () => {
    const owner = world.as.ORGANISATION_OWNER;
    const report = await createReportForTests(world.server.db, world.homeId);
    await world.server.db.insert(reportSubmissionAssignees).values({ submissionId: report, userId: world.as.MEMBER.userId, isOwner: true });
    const team = (await owner.gql<Listed>(LIST, { reportSubmissionID: report })).data!.users;
    expect(team.list.map((user) => user.id)).toEqual([world.as.MEMBER.userId]);
    const others = (await owner.gql<Listed>(LIST, { reportSubmissionID: report, reportSubmissionUnassigned: true, limit: 5 })).data!.users;
    expect(others.list.length).toBeLessThanOrEqual(5);
    expect(others.list.some((user) => user.id === world.as.MEMBER.userId)).toBe(false);
    const foreign = await createReportForTests(world.server.db, world.otherId);
    expect(messageOf(await owner.gql(LIST, { reportSubmissionID: foreign }))).toBe("Report Submission is not found");
    expect(messageOf(await owner.gql(LIST, { reportSubmissionID: "x" }))).toBe("Report Submission is not found");
    await world.server.db.delete(reportSubmissions).where(eq(reportSubmissions.id, foreign));
  });

  test("denied: members and guests; another organisation for anyone but a super admin", async () => {
    expect(codeOf(await world.as.MEMBER.gql(LIST, {}))).toBe("FORBIDDEN");
    expect(codeOf(await world.as.GUEST_MEMBER.gql(LIST, {}))).toBe("FORBIDDEN");
    expect(messageOf(await world.as.ORGANISATION_ADMIN.gql(LIST, { organisationID: world.otherId }))).toBe("Organisation is not found");
    const superList = (await world.as.SUPER_ADMIN.gql<Listed>(LIST, { organisationID: world.otherId })).data!.users;
    expect(superList.total).toBe(0);
    const superAdmins = (await world.as.SUPER_ADMIN.gql<Listed>(LIST, { roleName: "SUPER_ADMIN" })).data!.users;
    expect(superAdmins.list.map((user) => user.id)).toContain(world.as.SUPER_ADMIN.userId);
  });
});

describe("POST /api/admin/export/users", () => {
  const post = (client: (typeof world.as)["SUPER_ADMIN"], body: unknown, type = "application/json") =>
    client.fetch("/api/admin/export/users", { method: "POST", headers: { "Content-Type": type }, body: typeof body === "string" ? body : JSON.stringify(body) });

  test("a super admin gets users-export.csv: no secrets, formulas neutralised, Active and Archived by suspension", async () => {
    const hostile = await world.target("MEMBER");
    await world.server.db.update(users).set({ firstName: "=HYPERLINK(\"http://evil\")", suspended: true }).where(eq(users.id, hostile.id));
    const response = await post(world.as.SUPER_ADMIN, { search: "All" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="users-export.csv"');
    const csv = await response.text();
    expect(csv.split("\r\n")[0]).toContain("Email");
    expect(csv).toContain(`'=HYPERLINK`);
    expect(csv).not.toMatch(/argon2|\$argon/);
    const [hash] = await world.server.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, hostile.id));
    expect(csv).not.toContain(hash!.passwordHash!.slice(-20));
    const active = await (await post(world.as.SUPER_ADMIN, { search: "Active" })).text();
    const archived = await (await post(world.as.SUPER_ADMIN, { search: "Archived" })).text();
    expect(active).not.toContain(hostile.email);
    expect(archived).toContain(hostile.email);
    expect(archived).not.toContain(world.as.ORGANISATION_OWNER.userId);
    const [exports] = await world.server.db.select({ n: count() }).from(userActivities).where(eq(userActivities.action, "ExportCsv"));
    expect(exports!.n).toBeGreaterThanOrEqual(3);
  });

  test("denied to everyone else; bad bodies are the client's error", async () => {
    for (const role of ["ORGANISATION_OWNER", "ORGANISATION_ADMIN", "MEMBER", "GUEST_MEMBER"] as const) {
      expect((await post(world.as[role], { search: "All" })).status).toBe(403);
    }
    expect((await world.server.fetch("/api/admin/export/users", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" })).status).toBe(401);
    expect((await post(world.as.SUPER_ADMIN, { search: "Everything" })).status).toBe(400);
    expect((await post(world.as.SUPER_ADMIN, {})).status).toBe(400);
    expect((await post(world.as.SUPER_ADMIN, "search=All", "application/x-www-form-urlencoded")).status).toBe(415);
    expect((await post(world.as.SUPER_ADMIN, "[1,2]")).status).toBe(400);
    expect((await post(world.as.SUPER_ADMIN, { search: "All\u0000" })).status).toBe(400);
  });
});
