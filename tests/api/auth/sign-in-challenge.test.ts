import { describe, expect, test } from "bun:test";
import { issueChallenge } from "../../../api/lib/proof-of-work.ts";
import { MAX_DIFFICULTY } from "../../../api/modules/abuse/guard.ts";
import { serverSecret, subjectKey } from "../../../api/modules/abuse/secret.ts";
import { createUser } from "../../factories/users.ts";
import { failureSequence, postSolving, solveChallenge, type ChallengeBody } from "../../helpers/proof-of-work.ts";
import { serverWithOrganisation } from "../../helpers/organisations.ts";

const env = serverWithOrganisation();

const postLogin = (body: Record<string, unknown>) =>
  env.server.fetch("/api/auth/login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

async function challengeFor(body: Record<string, unknown>): Promise<ChallengeBody> {
  const response = await postLogin(body);
  expect(response.status).toBe(428);
  const answer = (await response.json()) as { code: string; challenge: ChallengeBody };
  expect(answer.code).toBe("CHALLENGE_REQUIRED");
  return answer.challenge;
}

async function failTimes(email: string, times: number) {
  for (let i = 0; i < times; i += 1) expect((await postSolving(postLogin, { email, password: "wrong-password-9" })).response.status).toBe(401);
}

describe("failed staff sign-ins cost the guesser work, never the owner their account", () => {
  test("a few failures need no work; then each attempt must solve a harder challenge; the right password with one signs in", async () => {
    const user = await createUser(env.server.db, { role: "MEMBER", organisationId: env.organisationId });
    for (let i = 0; i < 3; i += 1) expect((await postLogin({ email: user.email, password: "wrong-password-9" })).status).toBe(401);

    const first = await challengeFor({ email: user.email, password: user.password });
    expect(first.action).toBe("login_submit");
    expect(first.difficulty).toBeGreaterThan(0);
    expect((await postLogin({ email: user.email, password: "wrong-password-9", verifyToken: solveChallenge(first) })).status).toBe(401);
    const second = await challengeFor({ email: user.email, password: user.password });
    expect(second.difficulty).toBeGreaterThan(first.difficulty);

    // The owner, after all that: the right password and the solved challenge sign in at once.
    const signedIn = await postLogin({ email: user.email, password: user.password, verifyToken: solveChallenge(second) });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.getSetCookie().join()).toContain("lantern_session=");
    // And the slate is clean: the next sign-in is one request again.
    expect((await postLogin({ email: user.email, password: user.password })).status).toBe(200);
  });

  test("an attacker guessing on and on keeps paying more, up to the cap, while the owner still gets in", async () => {
    const user = await createUser(env.server.db, { role: "MEMBER", organisationId: env.organisationId });
    await failTimes(user.email, 8);
    const { response, solved } = await postSolving(postLogin, { email: user.email, password: user.password });
    expect(response.status).toBe(200);
    expect(solved).toEqual([MAX_DIFFICULTY]);
  });

  test("known and unknown emails answer alike through the same failures: status, body, headers, challenge difficulty", async () => {
    const user = await createUser(env.server.db, { role: "MEMBER", organisationId: env.organisationId });
    const known = await failureSequence(postLogin, { email: user.email, password: "wrong-password-9" }, 6);
    const unknown = await failureSequence(postLogin, { email: "nobody-here@example.test", password: "wrong-password-9" }, 6);
    expect(known.filter((answer) => answer.status === 428).length).toBeGreaterThan(0);
    expect(unknown).toEqual(known);
  });
});

describe("a solution counts once, for what it was issued, while it is fresh", () => {
  test("replayed, forged, unsolved, expired and wrong-action solutions are refused even with the right password", async () => {
    const user = await createUser(env.server.db, { role: "MEMBER", organisationId: env.organisationId });
    await failTimes(user.email, 3);
    const challenge = await challengeFor({ email: user.email, password: user.password });
    const solution = solveChallenge(challenge);
    expect((await postLogin({ email: user.email, password: "wrong-password-9", verifyToken: solution })).status).toBe(401);

    const [payload, signature, nonce] = solution.split(".") as [string, string, string];
    const easier = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), d: 0 })).toString("base64url");
    let unsolved = 0;
    while (solveChallenge(challenge) === `${challenge.token}.${unsolved}`) unsolved += 1;
    const secret = await serverSecret(env.server.db);
    const key = await subjectKey(env.server.db, "staff", user.email);
    const expired = issueChallenge(secret, "login_submit", key, challenge.difficulty, new Date(Date.now() - 10 * 60 * 1000));
    const otherAction = issueChallenge(secret, "report_login", key, challenge.difficulty, new Date());
    const otherSubject = issueChallenge(secret, "login_submit", await subjectKey(env.server.db, "staff", "someone-else@example.test"), challenge.difficulty, new Date());

    const refused = [
      solution, // replayed
      `${easier}.${signature}.${nonce}`, // forged: made easier without the env.server's signature
      `${challenge.token}.${unsolved}`, // the work was not done
      solveChallenge(expired as ChallengeBody),
      solveChallenge(otherAction as ChallengeBody),
      solveChallenge(otherSubject as ChallengeBody),
      "garbage",
    ];
    for (const verifyToken of refused) {
      const response = await postLogin({ email: user.email, password: user.password, verifyToken });
      expect(response.status).toBe(428);
      expect(response.headers.getSetCookie()).toHaveLength(0);
    }
  });
});
