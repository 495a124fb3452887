// Same-origin JSON helpers shared by the admin console and the reporter islands.
// They never throw: callers get a result they must branch on, which keeps
// error banners consistent with the spec's wording everywhere.

import { sendSolving } from './challenge-rounds';
import { challengeIn, withSolution, type Challenge } from './proof-of-work';

/** Sign-in calls' fallback (document 1 §8). */
export const FALLBACK_ERROR_MESSAGE = 'Something went wrong. Please try again.';

// The spec rewrites this one status so users understand why an upload failed.
const PAYLOAD_TOO_LARGE_MESSAGE = '413 Request Entity Too Large';

export type HttpSuccess<T> = { ok: true; status: number; data: T };
export type HttpFailure = { ok: false; status: number; message: string };
export type HttpResult<T> = HttpSuccess<T> | HttpFailure;

type RequestOptions = {
  method?: 'GET' | 'POST';
  body?: unknown;
  signal?: AbortSignal;
};

function buildInit(options: RequestOptions, accept: string): RequestInit {
  const headers: Record<string, string> = { accept };
  const init: RequestInit = {
    method: options.method ?? 'GET',
    // Session cookies must never be sent anywhere else, and only our own
    // origin is ever called, so same-origin is the strictest workable mode.
    credentials: 'same-origin',
    headers,
  };
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }
  if (options.signal) init.signal = options.signal;
  return init;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Auth endpoints answer failures as `{ error }` or `{ message }`; anything
// else falls back to the generic wording.
export function errorMessageFrom(body: unknown, status = 0, fallback = FALLBACK_ERROR_MESSAGE): string {
  if (status === 413) return PAYLOAD_TOO_LARGE_MESSAGE;
  if (isRecord(body)) {
    for (const key of ['error', 'message'] as const) {
      const value = body[key];
      if (typeof value === 'string' && value.trim() !== '') return value;
    }
  }
  return fallback;
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

async function fetchJsonOnce(url: string, options: RequestOptions): Promise<{ result: HttpResult<unknown>; challenge: Challenge | undefined }> {
  let response: Response;
  try {
    response = await fetch(url, buildInit(options, 'application/json'));
  } catch (error) {
    if (isAbort(error)) throw error;
    return { result: { ok: false, status: 0, message: FALLBACK_ERROR_MESSAGE }, challenge: undefined };
  }
  const body = await readJson(response);
  const challenge = challengeIn(body);
  if (!response.ok) {
    return { result: { ok: false, status: response.status, message: errorMessageFrom(body, response.status) }, challenge };
  }
  if (body === undefined) {
    return { result: { ok: false, status: response.status, message: FALLBACK_ERROR_MESSAGE }, challenge };
  }
  return { result: { ok: true, status: response.status, data: body }, challenge };
}

// When the server asks for proof of work, the browser solves it and repeats the request with the
// solution (challenge-rounds.ts); only a request with a body can carry one.
export async function fetchJson(url: string, options: RequestOptions = {}): Promise<HttpResult<unknown>> {
  if (options.body === undefined) return (await fetchJsonOnce(url, options)).result;
  return sendSolving((solution) => fetchJsonOnce(url, solution ? { ...options, body: withSolution(options.body, solution) } : options));
}

export function postJson(url: string, body: unknown, signal?: AbortSignal): Promise<HttpResult<unknown>> {
  const options: RequestOptions = { method: 'POST', body };
  if (signal) options.signal = signal;
  return fetchJson(url, options);
}

// For endpoints that answer plain text (the session check answers
// `unauthorised`), the status alone does not tell the whole story.
export async function fetchText(url: string): Promise<HttpResult<string>> {
  try {
    const response = await fetch(url, buildInit({}, 'text/plain'));
    const text = await response.text();
    if (!response.ok) return { ok: false, status: response.status, message: text };
    return { ok: true, status: response.status, data: text };
  } catch {
    return { ok: false, status: 0, message: FALLBACK_ERROR_MESSAGE };
  }
}

// Fire-and-forget POST that survives the page being replaced (quick exit,
// unload). `keepalive` is used rather than sendBeacon because Chromium
// refuses beacons with a JSON content type.
export function postJsonKeepalive(url: string, body: unknown): void {
  try {
    void fetch(url, { ...buildInit({ method: 'POST', body }, 'application/json'), keepalive: true }).catch(() => {});
  } catch {
    // Leaving must never be blocked by a failed request.
  }
}
