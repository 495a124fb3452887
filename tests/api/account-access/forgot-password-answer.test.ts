import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Socket, TCPSocketListener } from "bun";
import { seedDemo } from "../../../db/seed/demo.ts";
import { createUser } from "../../factories/users.ts";
import { demoOrganisationIds } from "../../helpers/demo.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";

/**
 * forgotPassword answers before, and apart from, anything that happens only for an account: with a
 * mail server that accepts the connection and never says a word, an address with an account is
 * answered exactly as one without, while its mail is still waiting to be handed over. So how long
 * the answer takes cannot tell the two apart either (decision 029).
 */
let server: TestServer;
let silentMailServer: TCPSocketListener<unknown>;
const connections: Socket<unknown>[] = [];

beforeAll(async () => {
  silentMailServer = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { open: (socket) => void connections.push(socket), data() {} } });
  server = await startTestServer({ env: { SMTP_URL: `smtp://127.0.0.1:${silentMailServer.port}` } });
  await seedDemo(server.db);
});
afterAll(async () => {
  for (const socket of connections) socket.end();
  silentMailServer.stop(true);
  await server.stop();
});

async function forgot(email: string) {
  const response = await server.fetch("/api/gql/query", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ query: "mutation ($email: String!) { forgotPassword(email: $email) }", variables: { email } }),
  });
  return { status: response.status, body: await response.json() };
}

describe("forgotPassword's answer", () => {
  test("does not wait for the mail: known and unknown addresses get the same answer while the mail server has not even greeted", async () => {
    const { demoId } = await demoOrganisationIds(server);
    const user = await createUser(server.db, { role: "MEMBER", organisationId: demoId });
    const unknown = await forgot("nobody-at-all@example.test");
    expect(connections).toHaveLength(0);
    const known = await forgot(user.email);
    expect(known).toEqual(unknown);
    expect(known).toEqual({ status: 200, body: { data: { forgotPassword: true } } });
    // The mail for the account is on its way (a connection opens), and can never have been delivered.
    for (let waited = 0; connections.length === 0 && waited < 400; waited += 1) await Bun.sleep(25);
    expect(connections).toHaveLength(1);
  });
});
