import type { CombinedError } from 'urql';
import { ACTION_FAILED_MESSAGE } from '../../lib/action-failed';

/** The first GraphQL error's message (the server's own wording), else the generic one. */
export function errorMessage(error: CombinedError | undefined): string | undefined {
  if (!error) return undefined;
  const first = error.graphQLErrors[0]?.message;
  if (first) return first;
  if (error.response?.status === 413) return '413 Request Entity Too Large';
  return ACTION_FAILED_MESSAGE;
}

export function errorCode(error: CombinedError | undefined): string | undefined {
  const code = error?.graphQLErrors[0]?.extensions?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The server's per-field problems (extensions.fields), keyed by field name. */
export function fieldProblems(error: CombinedError | undefined): Record<string, string> {
  const fields = error?.graphQLErrors[0]?.extensions?.fields;
  const problems: Record<string, string> = {};
  if (!Array.isArray(fields)) return problems;
  for (const entry of fields as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { field, message } = entry as { field?: unknown; message?: unknown };
    if (typeof field === 'string' && typeof message === 'string' && !(field in problems)) problems[field] = message;
  }
  return problems;
}

/** A report form that could not be loaded for another reason than not existing (spec §8). */
export const REPORT_FORM_LOAD_FAILED = 'An error had occurred while loading the report form. Please try again.';
