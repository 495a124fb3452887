import { afterAll, beforeAll } from "bun:test";
import { eq } from "drizzle-orm";
import { organisations, users } from "../../../db/schema/index.ts";
import type { RoleName } from "../../../api/shared/enums.ts";
import { createOrganisation, createUser } from "../../factories/users.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { loginAs, type StaffClient } from "../../helpers/session.ts";

export type Answer<T = Record<string, unknown>> = Awaited<ReturnType<StaffClient["gql"]>> & { data?: T };

/** The acting roles the rules distinguish, each with a signed-in client. */
export const ACTOR_ROLES = ["SUPER_ADMIN", "ORGANISATION_OWNER", "ORGANISATION_ADMIN", "MEMBER", "GUEST_MEMBER"] as const satisfies readonly RoleName[];

export interface UsersWorld {
  server: TestServer;
  /** The organisation every actor but the super admin belongs to, and another one. */
  homeId: string;
  otherId: string;
  roleIds: Record<RoleName, string>;
  as: Record<RoleName, StaffClient & { userId: string }>;
  /** A fresh, signed-out user to act on. */
  target(role: RoleName, organisationId?: string | null): Promise<{ id: string; email: string; password: string }>;
  userRow(id: string): Promise<typeof users.$inferSelect | undefined>;
}

/** A server with two organisations of plenty of seats, and a signed-in actor of every role in the first. */
export function usersWorld(): UsersWorld {
  const world = {} as UsersWorld;
  beforeAll(async () => {
    const server = await startTestServer();
    const homeId = (await createOrganisation(server.db, { openSeatNumber: 500 })).id;
    const otherId = (await createOrganisation(server.db, { openSeatNumber: 500 })).id;
    const as = {} as UsersWorld["as"];
    for (const role of ACTOR_ROLES) {
      const user = await createUser(server.db, { role, organisationId: role === "SUPER_ADMIN" ? null : homeId });
      as[role] = Object.assign(await loginAs(server, user.email, user.password), { userId: user.id });
    }
    const roles = (await as.SUPER_ADMIN.gql<{ roles: { id: string; name: RoleName }[] }>("{ roles { id name } }")).data!.roles;
    Object.assign(world, {
      server,
      homeId,
      otherId,
      as,
      roleIds: Object.fromEntries(roles.map((role) => [role.name, role.id])) as Record<RoleName, string>,
      target: (role: RoleName, organisationId?: string | null) => createUser(server.db, { role, organisationId: organisationId === undefined ? homeId : organisationId }),
      userRow: async (id: string) => (await server.db.select().from(users).where(eq(users.id, id)))[0],
    });
  }, 60_000);
  afterAll(() => world.server.stop());
  return world;
}

export const setSeats = (world: UsersWorld, organisationId: string, openSeatNumber: number) =>
  world.server.db.update(organisations).set({ openSeatNumber }).where(eq(organisations.id, organisationId));

export const codeOf = (answer: { errors?: { extensions?: { code?: string } }[] }) => answer.errors?.[0]?.extensions?.code;
export const messageOf = (answer: { errors?: { message: string }[] }) => answer.errors?.[0]?.message;

export const USER_SUSPEND = `mutation ($id: ID!) { userSuspend(id: $id) { id suspended } }`;
export const USER_UNSUSPEND = `mutation ($id: ID!) { userUnsuspend(id: $id) { id suspended } }`;
export const USER_DELETE = `mutation ($id: ID!) { userDelete(id: $id) }`;
export const USER_KICK = `mutation ($id: ID!, $organisationID: ID!) { userKick(id: $id, organisationID: $organisationID) }`;
export const USER_UPDATE = `mutation ($id: ID!, $input: UserUpdateInput!) { userUpdate(id: $id, input: $input) { id firstName lastName email verified role { name } twoFactorAuthenticationActivated } }`;
export const USER_CREATE = `mutation ($input: UserCreateInput!) { userCreate(input: $input) { id email verified suspended role { name } organisation { id } } }`;
export const CHECK = async (client: StaffClient) => (await client.fetch("/api/auth/check")).text();
