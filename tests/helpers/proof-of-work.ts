import { leadingZeroBits } from "../../api/lib/proof-of-work.ts";

export interface ChallengeBody {
  token: string;
  action: string;
  difficulty: number;
  expiresAt: string;
}

/** Does the work a browser does for a challenge and returns the solution to send as `verifyToken`. */
export function solveChallenge(challenge: ChallengeBody): string {
  const signature = challenge.token.split(".")[1]!;
  for (let nonce = 0; ; nonce += 1) {
    if (leadingZeroBits(Bun.CryptoHasher.hash("sha256", signature + nonce)) >= challenge.difficulty) return `${challenge.token}.${nonce}`;
  }
}

/**
 * Posts JSON; when the server answers 428 with a challenge, solves it and repeats with the
 * solution in `verifyToken`, as the pages do. Returns the final answer and how many solves it took.
 */
export async function postSolving(send: (body: Record<string, unknown>) => Promise<Response>, body: Record<string, unknown>): Promise<{ response: Response; solved: number[] }> {
  const solved: number[] = [];
  let response = await send(body);
  for (let round = 0; round < 3 && response.status === 428; round += 1) {
    const { challenge } = (await response.json()) as { challenge: ChallengeBody };
    solved.push(challenge.difficulty);
    response = await send({ ...body, verifyToken: solveChallenge(challenge) });
  }
  return { response, solved };
}

export interface AnswerShape {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** What an observer can compare between two answers: everything but the date and the challenge's own random token and expiry. */
async function shapeOf(response: Response): Promise<{ shape: AnswerShape; challenge: ChallengeBody | undefined }> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    if (key !== "date") headers[key] = value;
  });
  const body = (await response.json()) as Record<string, unknown>;
  const challenge = body.challenge as ChallengeBody | undefined;
  if (challenge) body.challenge = { action: challenge.action, difficulty: challenge.difficulty, tokenLength: challenge.token.length };
  return { shape: { status: response.status, headers, body }, challenge };
}

/**
 * Sends `rounds` wrong attempts as a browser would (solving whenever asked) and records every
 * answer, challenges included, so two subjects' sequences can be compared answer by answer.
 */
export async function failureSequence(send: (body: Record<string, unknown>) => Promise<Response>, body: Record<string, unknown>, rounds: number): Promise<AnswerShape[]> {
  const answers: AnswerShape[] = [];
  for (let round = 0; round < rounds; round += 1) {
    let answer = await shapeOf(await send(body));
    answers.push(answer.shape);
    if (answer.challenge) {
      answer = await shapeOf(await send({ ...body, verifyToken: solveChallenge(answer.challenge) }));
      answers.push(answer.shape);
    }
  }
  return answers;
}
