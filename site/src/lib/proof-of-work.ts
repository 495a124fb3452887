// The server's proof-of-work challenges (docs/decisions/016-proof-of-work.md): recognising one in
// an answer and sending its solution back. The solver itself is proof-of-work-solver.ts.

export type Challenge = { token: string; difficulty: number };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asChallenge(value: unknown): Challenge | undefined {
  if (!isRecord(value) || typeof value.token !== 'string' || typeof value.difficulty !== 'number') return undefined;
  if (value.difficulty < 0 || value.difficulty > 32) return undefined;
  return { token: value.token, difficulty: value.difficulty };
}

/**
 * The challenge in an answer, if the server asked for work: a REST answer
 * `{ code: 'CHALLENGE_REQUIRED', challenge }`, or a GraphQL error with that code and the challenge
 * in its extensions.
 */
export function challengeIn(body: unknown): Challenge | undefined {
  if (!isRecord(body)) return undefined;
  if (body.code === 'CHALLENGE_REQUIRED') return asChallenge(body.challenge);
  const first: unknown = Array.isArray(body.errors) ? body.errors[0] : undefined;
  const extensions = isRecord(first) ? first.extensions : undefined;
  return isRecord(extensions) && extensions.code === 'CHALLENGE_REQUIRED' ? asChallenge(extensions.challenge) : undefined;
}

/** The request body repeated with the solution: REST calls take `verifyToken`, GraphQL calls the variable of that name. */
export function withSolution(body: unknown, solution: string): unknown {
  if (!isRecord(body)) return body;
  if (typeof body.query === 'string') return { ...body, variables: { ...(isRecord(body.variables) ? body.variables : {}), verifyToken: solution } };
  return { ...body, verifyToken: solution };
}
