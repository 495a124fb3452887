import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { onboardInvites, roles, users } from "../../../db/schema/index.ts";
import { claimSeat, hasFreeSeat, NO_FREE_SEATS, seatUsage } from "../../../api/modules/organisations/seats.ts";
import { UserError } from "../../../api/lib/errors.ts";
import { hashToken, newToken } from "../../../api/lib/tokens.ts";
import { createOrganisation, createUser } from "../../factories/users.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";

/**
 * The one seat rule (seats.ts): active users plus open invites never exceed openSeatNumber, even when
 * many claims for the last seats arrive at once (each claim locks the organisation first). On
 * Postgres the claims really run side by side, each transaction on its own connection.
 */
let server: TestServer;
let memberRoleId: string;

beforeAll(async () => {
  server = await startTestServer();
  memberRoleId = (await server.db.select({ id: roles.id }).from(roles).where(eq(roles.name, "MEMBER")))[0]!.id;
});
afterAll(() => server.stop());

let counter = 0;
/** One claim followed by what fills the seat: a user, or an invite. */
function claimAndFill(organisationId: string, kind: "user" | "invite"): Promise<"taken" | "refused"> {
  counter += 1;
  const n = counter;
  return server.db
    .transaction(async (tx) => {
      await claimSeat(tx, organisationId);
      if (kind === "user") {
        await tx.insert(users).values({ email: `seat${n}-${Date.now()}@example.test`, firstName: "Seat", lastName: `${n}`, roleId: memberRoleId, organisationId });
      } else {
        await tx.insert(onboardInvites).values({
          organisationId,
          roleId: memberRoleId,
          email: `invite${n}@example.test`,
          firstName: "Invited",
          lastName: `${n}`,
          tokenHash: hashToken(newToken()),
          expiresAt: new Date(Date.now() + 86_400_000),
        });
      }
      return "taken" as const;
    })
    .catch((error: unknown) => {
      if (error instanceof UserError && error.message === NO_FREE_SEATS) return "refused" as const;
      throw error;
    });
}

describe("seats", () => {
  test("usage counts active users and open invites; suspended users and archived or expired invites hold none", async () => {
    const org = await createOrganisation(server.db, { openSeatNumber: 5 });
    await createUser(server.db, { role: "ORGANISATION_OWNER", organisationId: org.id });
    await createUser(server.db, { role: "MEMBER", organisationId: org.id, suspended: true });
    await claimAndFill(org.id, "invite");
    const [expired] = await server.db
      .insert(onboardInvites)
      .values({ organisationId: org.id, roleId: memberRoleId, email: "old@example.test", firstName: "Old", lastName: "Invite", tokenHash: hashToken(newToken()), expiresAt: new Date(Date.now() - 1000) })
      .returning();
    expect(expired).toBeDefined();
    const usage = (await seatUsage(server.db, org.id))!;
    expect(usage).toEqual({ openSeatNumber: 5, activeUsers: 1, pendingInvites: 1 });
    expect(hasFreeSeat(usage)).toBe(true);
    await server.db.update(onboardInvites).set({ archived: true }).where(and(eq(onboardInvites.organisationId, org.id), eq(onboardInvites.status, "Invited")));
    expect((await seatUsage(server.db, org.id))!.pendingInvites).toBe(0);
  });

  test("a full organisation refuses; an unknown one is not found", async () => {
    const org = await createOrganisation(server.db, { openSeatNumber: 1 });
    await createUser(server.db, { role: "ORGANISATION_OWNER", organisationId: org.id });
    expect(await claimAndFill(org.id, "user")).toBe("refused");
    expect(await claimAndFill(org.id, "invite")).toBe("refused");
    await expect(server.db.transaction((tx) => claimSeat(tx, crypto.randomUUID()))).rejects.toThrow("Organisation is not found");
  });

  test("an invite being accepted hands its own seat on", async () => {
    const org = await createOrganisation(server.db, { openSeatNumber: 2 });
    await createUser(server.db, { role: "ORGANISATION_OWNER", organisationId: org.id });
    expect(await claimAndFill(org.id, "invite")).toBe("taken");
    const [invite] = await server.db.select({ id: onboardInvites.id }).from(onboardInvites).where(eq(onboardInvites.organisationId, org.id));
    await server.db.transaction((tx) => claimSeat(tx, org.id, { releasingInviteId: invite!.id }));
    await expect(server.db.transaction((tx) => claimSeat(tx, org.id))).rejects.toThrow(NO_FREE_SEATS);
  });

  test("concurrent claims for the last seats, users and invites mixed, never oversubscribe", async () => {
    for (let round = 0; round < 3; round += 1) {
      const org = await createOrganisation(server.db, { openSeatNumber: 3 });
      await createUser(server.db, { role: "ORGANISATION_OWNER", organisationId: org.id });
      const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => claimAndFill(org.id, i % 2 ? "user" : "invite")));
      expect(outcomes.filter((outcome) => outcome === "taken").length).toBe(2);
      const usage = (await seatUsage(server.db, org.id))!;
      expect(usage.activeUsers + usage.pendingInvites).toBe(3);
    }
  });
});
