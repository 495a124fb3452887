import type { CombinedError } from 'urql';
import { FALLBACK_ERROR_MESSAGE } from '../../lib/http';

/** The first GraphQL error's message (the server's own wording), else the generic one. */
export function errorMessage(error: CombinedError | undefined): string | undefined {
  if (!error) return undefined;
  const first = error.graphQLErrors[0]?.message;
  if (first) return first;
  if (error.response?.status === 413) return '413 Request Entity Too Large';
  return FALLBACK_ERROR_MESSAGE;
}

export function errorCode(error: CombinedError | undefined): string | undefined {
  const code = error?.graphQLErrors[0]?.extensions?.code;
  return typeof code === 'string' ? code : undefined;
}
