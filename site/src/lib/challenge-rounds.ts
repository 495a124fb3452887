import type { Challenge } from './proof-of-work';

// How many challenges one call solves before giving up: the server asks again only when it got
// busier while the browser worked.
const MAX_CHALLENGE_ROUNDS = 3;

/**
 * Sends a request; when the server asks for proof of work (a sign-in after failures, an upload
 * under load), solves it and sends again with the solution, so the caller only sees the final
 * answer and its button keeps its busy text meanwhile.
 */
export async function sendSolving<R>(send: (solution: string | null) => Promise<{ result: R; challenge?: Challenge | undefined }>): Promise<R> {
  let answer = await send(null);
  for (let round = 0; round < MAX_CHALLENGE_ROUNDS && answer.challenge; round += 1) {
    let solution: string;
    try {
      // The solver is fetched on the first challenge: most visits never meet one.
      const { solveChallenge } = await import('./proof-of-work-solver');
      solution = await solveChallenge(answer.challenge);
    } catch {
      break;
    }
    answer = await send(solution);
  }
  return answer.result;
}
