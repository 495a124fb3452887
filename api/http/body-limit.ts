import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";

/**
 * Refuses a request body over `maxSize` bytes. A declared Content-Length is checked from the header
 * alone (Bun reads exactly that many bytes, no more): reading `request.body` would turn the body into
 * a stream for every request, and the handlers could no longer read it by the fast path (decision
 * 025). Only a body without a length (chunked) is counted as it streams, by Hono's own limit.
 */
export function requestBodyLimit(options: { maxSize: number; onError: (c: Context) => Response | Promise<Response> }): MiddlewareHandler {
  const streamed = bodyLimit(options);
  return async (c, next) => {
    const method = c.req.method;
    if (method === "GET" || method === "HEAD" || method === "OPTIONS") return next();
    const headers = c.req.raw.headers;
    const length = headers.get("content-length");
    if (length === null || headers.has("transfer-encoding") || !/^\d{1,15}$/.test(length)) return streamed(c, next);
    if (Number(length) > options.maxSize) return options.onError(c);
    return next();
  };
}
