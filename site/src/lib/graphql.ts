import { FALLBACK_ERROR_MESSAGE, fetchJson } from './http';

// A minimal GraphQL-over-HTTP call. The console grows into a real client
// later; until then one POST per operation is all the shell needs.
const GRAPHQL_ENDPOINT = '/api/gql/query';

export type GraphqlResult = { ok: true; data: object } | { ok: false; status: number; message: string };

function firstErrorMessage(errors: unknown): string | undefined {
  if (!Array.isArray(errors)) return undefined;
  const first: unknown = errors[0];
  if (typeof first === 'object' && first !== null && 'message' in first && typeof first.message === 'string') {
    return first.message;
  }
  return undefined;
}

export async function graphqlRequest(query: string, variables?: Record<string, unknown>): Promise<GraphqlResult> {
  const body: Record<string, unknown> = { query };
  if (variables) body.variables = variables;
  const result = await fetchJson(GRAPHQL_ENDPOINT, { method: 'POST', body });
  if (!result.ok) return result;
  const payload = result.data;
  if (typeof payload !== 'object' || payload === null) {
    return { ok: false, status: result.status, message: FALLBACK_ERROR_MESSAGE };
  }
  const errorMessage = 'errors' in payload ? firstErrorMessage(payload.errors) : undefined;
  const data = 'data' in payload ? payload.data : undefined;
  // A partial result with errors is treated as a failure: the shell has no
  // screen that can make sense of half a viewer.
  if (errorMessage !== undefined || typeof data !== 'object' || data === null) {
    return { ok: false, status: result.status, message: errorMessage ?? FALLBACK_ERROR_MESSAGE };
  }
  return { ok: true, data };
}
