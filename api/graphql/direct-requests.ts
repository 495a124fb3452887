import { getOperationAST, GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLSchema } from "graphql";
import { createGraphQLError, isAsyncIterable, processRegularResult } from "graphql-yoga";
import type { Ctx } from "../context.ts";
import { keptAnswerKey } from "./viewer-answers.ts";
import type { GraphqlServer } from "./yoga.ts";

/**
 * The common GraphQL request, a JSON POST asking for a JSON answer, executed through Yoga's own
 * envelop (the same parse and validation caches, limits, text guard, masked errors and context)
 * without Yoga's HTTP adapter around it (decision 025). That adapter wraps every request in layers
 * of promise helpers, URL and abort-signal bookkeeping, and five request-parser and two
 * result-processor hook rounds; on the signed-in viewer it was a fifth of the server's time.
 *
 * Everything this path does not recognise as that common request goes to Yoga unchanged: another
 * content type or Accept header, a body that is not one JSON object of the four GraphQL
 * parameters, a subscription. What it answers, it answers as Yoga would, byte for byte, which
 * tests/api/graphql/direct-requests.test.ts checks against Yoga itself.
 */

/** The request, with the body already read, for Yoga to answer the regular way. */
export type Fallback = { fallback: Request };

interface YogaInternals {
  /** Yoga's masking options (what `handleError` uses), null when masking is off. */
  maskedErrorsOpts: { maskError(error: unknown, message: string, isDev?: boolean): Error; errorMessage: string; isDev?: boolean } | null;
  onParamsHooks: unknown[];
  onExecutionResultHooks: unknown[];
  onResultProcessHooks: unknown[];
  fetchAPI: Parameters<typeof processRegularResult>[1];
  waitUntil: (promise: Promise<unknown>) => void;
}

interface Params {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
  extensions?: Record<string, unknown> | null;
}

const PARAMETERS = new Set(["query", "variables", "operationName", "extensions"]);
const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isOptionalObject = (value: unknown) => value === undefined || value === null || isPlainObject(value);

/**
 * A body Yoga would accept as it is: one object, a string query, objects (or nothing) for variables
 * and extensions, a string (or nothing) for the operation's name, and no other parameter. Stricter
 * than Yoga's own check, never looser, so whatever Yoga would refuse goes to Yoga to be refused.
 */
function plainParams(body: unknown): body is Params {
  if (!isPlainObject(body)) return false;
  for (const key in body) if (!PARAMETERS.has(key)) return false;
  const { operationName } = body;
  return typeof body.query === "string" && isOptionalObject(body.variables) && isOptionalObject(body.extensions) && (operationName === undefined || operationName === null || typeof operationName === "string");
}

/** Yoga's own test for a JSON body (its request parser), which the route's looser check does not repeat. */
function isJsonContentType(request: Request): boolean {
  const type = request.headers.get("content-type")?.split(",")[0];
  return type === "application/json" || type?.startsWith("application/json;") === true;
}

/**
 * The media type Yoga's result processors would pick for a single (not streamed) result with this
 * Accept header, when that is a plain JSON answer; null when it would pick a stream or refuse (406).
 * The same walk as Yoga's: every processor against every asked type, the last match wins.
 */
const PROCESSORS: [stream: boolean, types: string[]][] = [
  [true, ["text/event-stream"]],
  [true, ["multipart/mixed"]],
  [false, ["application/graphql-response+json", "application/json"]],
];

function askedMediaTypes(accept: string | null): string[] {
  const types: string[] = [];
  for (const entry of (accept || "*/*").replace(/\s/g, "").toLowerCase().split(",")) {
    const [type, ...parameters] = entry.split(";");
    const charset = parameters.find((parameter) => parameter.includes("charset=")) ?? "charset=utf-8";
    if (type !== undefined && charset === "charset=utf-8") types.push(type);
  }
  return types.reverse();
}

const matches = (offered: string, asked: string) => {
  const [offeredType, offeredSubtype] = offered.split("/");
  const [type, subtype] = asked.split("/");
  return (type === "*" || type === offeredType) && (subtype === "*" || subtype === offeredSubtype);
};

function jsonMediaType(accept: string | null): string | null {
  let chosen: { stream: boolean; type: string } | null = null;
  for (const [stream, offered] of PROCESSORS) {
    for (const asked of askedMediaTypes(accept)) {
      for (const type of offered) if (matches(type, asked)) chosen = { stream, type };
    }
  }
  return chosen && !chosen.stream ? chosen.type : null;
}

/** Browsers send one or two Accept headers; the answer per header is kept, for a bounded few. */
const MAX_ACCEPT_HEADERS = 64;

/** Yoga's `handleError`, for the masked errors Lantern always configures. */
function handledErrors(error: unknown, masking: NonNullable<YogaInternals["maskedErrorsOpts"]>): GraphQLError[] {
  const errors = new Set<GraphQLError>();
  if (typeof error === "object" && error !== null && "errors" in error) {
    for (const inner of (error as { errors: Iterable<unknown> }).errors) for (const handled of handledErrors(inner, masking)) errors.add(handled);
  } else if (!isAbortError(error)) {
    const masked = masking.maskError(error, masking.errorMessage, masking.isDev);
    errors.add(masked instanceof GraphQLError ? masked : createGraphQLError(masked.message, { originalError: masked }));
  }
  return [...errors];
}

function isAbortError(error: unknown): boolean {
  const name = (error as { constructor?: { name?: string }; name?: string } | null)?.constructor?.name;
  return typeof error === "object" && name === "DOMException" && ((error as Error).name === "AbortError" || (error as Error).name === "TimeoutError");
}

/**
 * The viewer's answer as its row copies keep it (viewer-answers.ts), for a signed-in staff member
 * asking only for row fields of `viewer`; null for anything else. A copy is kept only from an
 * answer without errors, and ends with the user's row copies (users/viewer-cache.ts).
 */
function keptAnswer(ctx: Ctx, schema: GraphQLSchema, document: DocumentNode, params: Params) {
  const { actor } = ctx;
  if (actor.kind !== "staff" && actor.kind !== "two-factor-pending") return null;
  const key = keptAnswerKey(schema, document, params.query, params.operationName, params.variables, actor.kind);
  if (key === null) return null;
  const cache = ctx.services.viewerCache;
  return {
    read: (): ExecutionResult | undefined => {
      const data = cache.read(actor.userId, key);
      return data ? { data } : undefined;
    },
    mark: () => cache.mark(),
    keep: (data: Record<string, unknown>, markedAt: number) => cache.keep(actor.userId, actor.organisationId, key, data, markedAt),
  };
}

export interface DirectRequests {
  /** Yoga's answer, or the request (with its body) for Yoga to answer when this path does not take it. */
  answer(request: Request, ctx: Ctx): Promise<Response | Fallback>;
}

/**
 * Null when this Yoga has hooks the direct path would skip (a plugin added since), or a schema
 * that can stream a query's result: then every request takes Yoga's own way.
 */
export function directRequests(yoga: GraphqlServer, schema: GraphQLSchema): DirectRequests | null {
  const internals = yoga as unknown as YogaInternals;
  const masking = internals.maskedErrorsOpts;
  // Yoga's own parameter check (onParams), which `plainParams` stands in for, and its result processors.
  if (!masking || internals.onParamsHooks.length !== 1 || internals.onExecutionResultHooks.length !== 0 || internals.onResultProcessHooks.length !== 1) return null;
  if (schema.getDirective("defer") || schema.getDirective("stream")) return null;
  const waitUntil = internals.waitUntil;
  const mediaTypes = new Map<string | null, string | null>();
  /**
   * Documents that passed validation. Yoga's parse cache hands out the same document for the same
   * text, and validation depends on nothing but the document (the rules are the same for every
   * request, and Yoga's own validation cache keys on the document alone), so a document that
   * passed once passes again; asking Yoga's cache still cost a list of every rule's name per request.
   */
  const validDocuments = new WeakSet<object>();

  const mediaTypeFor = (accept: string | null): string | null => {
    if (mediaTypes.has(accept)) return mediaTypes.get(accept)!;
    const type = jsonMediaType(accept);
    if (mediaTypes.size < MAX_ACCEPT_HEADERS) mediaTypes.set(accept, type);
    return type;
  };

  const respond = (result: ExecutionResult, mediaType: string): Response => {
    try {
      return processRegularResult(result, internals.fetchAPI, mediaType) as Response;
    } catch (error) {
      return processRegularResult({ errors: handledErrors(error, masking) }, internals.fetchAPI, mediaType) as Response;
    }
  };

  return {
    async answer(request, ctx) {
      if (request.method !== "POST" || !isJsonContentType(request)) return { fallback: request };
      const mediaType = mediaTypeFor(request.headers.get("accept"));
      if (mediaType === null) return { fallback: request };
      const text = await request.text();
      let params: unknown;
      try {
        params = JSON.parse(text);
      } catch {
        params = undefined;
      }
      // The body has been read: Yoga gets the same request again, with the same text.
      const replay = () => ({ fallback: new Request(request.url, { method: request.method, headers: request.headers, body: text }) });
      if (!plainParams(params)) return replay();

      // The context Yoga builds: its adapter's copy of the server context, then the request and its parameters.
      const context = { waitUntil, ...ctx, request, params };
      let result: ExecutionResult;
      try {
        const enveloped = yoga.getEnveloped(context);
        const document = enveloped.parse(params.query);
        if (!validDocuments.has(document)) {
          const errors = enveloped.validate(enveloped.schema, document);
          if (errors.length > 0) return respond({ errors }, mediaType);
          validDocuments.add(document);
        }
        // A subscription's answer is a stream, Yoga's to serve (nothing has run yet).
        if (getOperationAST(document, params.operationName)?.operation === "subscription") {
          return replay();
        }
        const kept = keptAnswer(ctx, enveloped.schema, document, params);
        const copy = kept?.read();
        if (copy) return respond(copy, mediaType);
        const markedAt = kept?.mark() ?? 0;
        const contextValue = await enveloped.contextFactory();
        const executed = await enveloped.execute({ schema: enveloped.schema, document, contextValue, variableValues: params.variables, operationName: params.operationName });
        if (isAsyncIterable(executed)) throw new Error("A query's result was a stream; streaming is not enabled.");
        result = executed as ExecutionResult;
        if (kept && !result.errors && !result.extensions && result.data) kept.keep(result.data, markedAt);
      } catch (error) {
        result = { errors: handledErrors(error, masking) };
      }
      return respond(result, mediaType);
    },
  };
}
