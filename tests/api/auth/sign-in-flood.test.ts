import { afterAll, beforeAll, expect, test } from "bun:test";
import { createOrganisation, createUser } from "../../factories/users.ts";
import { postSolving } from "../../helpers/proof-of-work.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const postLogin = (body: Record<string, unknown>) =>
  server.fetch("/api/auth/login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

test("a flood of unknown emails does not turn a real staff sign-in into an error; the flood is answered with challenges", async () => {
  const organisationId = (await createOrganisation(server.db)).id;
  const user = await createUser(server.db, { role: "ORGANISATION_OWNER", organisationId });
  const flood = Array.from({ length: 300 }, (_, i) => postLogin({ email: `flood-${i}@example.test`, password: "guess-password-1" }).then((response) => response.status));
  // The owner arrives while the flood is still being answered.
  await Promise.race(flood);
  const { response } = await postSolving(postLogin, { email: user.email, password: user.password });
  expect(response.status).toBe(200);
  const statuses = new Set(await Promise.all(flood));
  expect([...statuses].sort()).toEqual([401, 428]);
});
