import { describe, expect, test } from "bun:test";
import { createUser } from "../../factories/users.ts";
import { loginAs, type StaffClient } from "../../helpers/session.ts";
import { rawSocket, type RawSocket } from "../../helpers/websocket.ts";
import { serverWithOrganisation } from "../../helpers/organisations.ts";

/**
 * A console's socket belongs to its session: once the session ends (sign-out here or in another
 * tab, a password change), the socket starts nothing more and is closed with 4401, without waiting
 * for the next keep-alive.
 */
const env = serverWithOrganisation();

const USER_STATS = "subscription { userStats { pendingInvites guestOrganisationCount } }";

async function signedInSocket(): Promise<{ client: StaffClient; socket: RawSocket; password: string }> {
  const user = await createUser(env.server.db, { role: "ORGANISATION_ADMIN", organisationId: env.organisationId });
  const client = await loginAs(env.server, user.email, user.password);
  const socket = await rawSocket(env.server, { cookie: client.cookie });
  socket.send(JSON.stringify({ type: "connection_init" }));
  expect(await socket.waitFor((message) => message.type === "connection_ack")).toBe(true);
  return { client, socket, password: user.password };
}

const subscribe = (socket: RawSocket, id: string) => socket.send(JSON.stringify({ id, type: "subscribe", payload: { query: USER_STATS } }));
const answered = (socket: RawSocket, id: string, type: string) => socket.waitFor((message) => message.id === id && message.type === type);

describe("a console socket after its session ends", () => {
  test("while signed in, an operation runs; after sign-out none starts and the socket is closed with 4401", async () => {
    const { client, socket } = await signedInSocket();
    subscribe(socket, "before");
    expect(await answered(socket, "before", "next")).toBe(true);

    expect((await client.fetch("/api/auth/logout", { method: "POST" })).status).toBe(200);
    subscribe(socket, "after");
    // Refused, never answered with data: whichever comes first, the error or the close.
    await socket.waitFor((message) => message.id === "after" && message.type !== "next");
    expect(socket.messages.some((message) => (message as { id?: string; type?: string }).id === "after" && (message as { type?: string }).type === "next")).toBe(false);
    expect((await socket.closed).code).toBe(4401);
  });

  test("a console listening for its disconnect hears it before the close", async () => {
    const { client, socket } = await signedInSocket();
    socket.send(JSON.stringify({ id: "gone", type: "subscribe", payload: { query: "subscription { gone: organisationUserDisconnect }" } }));
    socket.send(JSON.stringify({ id: "ended", type: "subscribe", payload: { query: "subscription { organisationUserDisconnect }" } }));
    socket.send(JSON.stringify({ id: "ended", type: "complete" }));
    subscribe(socket, "stats");
    expect(await answered(socket, "stats", "next")).toBe(true);
    expect((await client.fetch("/api/auth/logout", { method: "POST" })).status).toBe(200);
    expect((await socket.closed).code).toBe(4401);
    const told = socket.messages.filter((message) => (message as { type?: string }).type === "next" && (message as { id?: string }).id !== "stats");
    // Under the name it asked for; a subscription the console had already ended is not answered.
    expect(told).toEqual([{ id: "gone", type: "next", payload: { data: { gone: true } } }]);
  });

  test("a password change made in another tab closes the socket too", async () => {
    const { client, socket, password } = await signedInSocket();
    const other = await loginAs(env.server, (await client.gql<{ viewer: { email: string } }>("{ viewer { email } }")).data!.viewer.email, password);
    const changed = await other.gql("mutation ($old: String!, $new: String!) { changePassword(oldPassword: $old, newPassword: $new) }", { old: password, new: "another-pass-2026" });
    expect(changed.errors).toBeUndefined();
    // At once, not at the next keep-alive (every 10 s): the bound below is well inside one.
    expect(await Promise.race([socket.closed.then(({ code }) => code), Bun.sleep(4_000).then(() => "still open")])).toBe(4401);
  });

  test("a session that goes on keeps its socket: signing out elsewhere ends only that session", async () => {
    const { client, socket, password } = await signedInSocket();
    const other = await loginAs(env.server, (await client.gql<{ viewer: { email: string } }>("{ viewer { email } }")).data!.viewer.email, password);
    expect((await other.fetch("/api/auth/logout", { method: "POST" })).status).toBe(200);
    subscribe(socket, "still");
    expect(await answered(socket, "still", "next")).toBe(true);
    socket.close();
  });
});
