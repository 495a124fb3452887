import { Hono, type Context, type MiddlewareHandler } from "hono";
import { requestBodyLimit } from "./body-limit.ts";
import type { Actor, Services } from "../context.ts";
import { badInput } from "../lib/errors.ts";
import { openReportAttachment } from "../modules/files/attachment-access.ts";
import { openChatImage } from "../modules/files/chat-image-access.ts";
import { openAvatar } from "../modules/files/avatar-access.ts";
import { openOrganisationLogo } from "../modules/files/logo-access.ts";
import { openResourceDocument } from "../modules/files/resource-document-access.ts";
import { addReportAttachment, deleteReportAttachment, type IncomingAttachment } from "../modules/files/attachments.ts";
import { attachmentDisposition } from "../modules/files/file-name.ts";
import { errorResponse } from "./auth-routes.ts";
import { requestCtx } from "./request-context.ts";
import type { AppEnv } from "./types.ts";

/**
 * The request limit for an upload: one attachment of at most 25,000,000 bytes plus the multipart
 * envelope. A larger file is refused by the handler with its own message; a body past this limit
 * is cut off here, before it is buffered. (Bun.serve's own ceiling, boot.ts, is above both.)
 */
export const UPLOAD_BODY_LIMIT_BYTES = 26 * 1024 * 1024;

/** The spec's wording for a 413, which the reporter's page shows as it is. */
const TOO_LARGE = "413 Request Entity Too Large";

/** Bytes from the blob store must never be interpreted by the browser on our origin. */
const DOWNLOAD_CSP = "default-src 'none'; sandbox";

/**
 * A chat image is shown inline (as a 200 px preview, and opened on its own). Inline styles are
 * what SVGs are drawn with; the sandbox (no allow-scripts) means an SVG opened directly runs nothing.
 */
const CHAT_IMAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * The largest file sent to GraphQL as a multipart request, plus the envelope and the operation. On
 * the console's host: an organisation's logo (under 10,000,000 bytes), and for those who manage
 * help resources a document (25,000,000 bytes, decision 039). On the reporters' hosts the largest
 * is a chat image (5,000,000 bytes). The larger the limit, the fewer may use it: a stranger cannot
 * make the server read large bodies, from a public page or from the console's.
 */
export const GRAPHQL_UPLOAD_BODY_LIMIT_BYTES = 11 * 1024 * 1024;
export const REPORTER_GRAPHQL_UPLOAD_BODY_LIMIT_BYTES = 6 * 1024 * 1024;
export const RESOURCE_GRAPHQL_UPLOAD_BODY_LIMIT_BYTES = UPLOAD_BODY_LIMIT_BYTES;

export const isMultipartPost = (c: Context) => c.req.method === "POST" && (c.req.header("content-type") ?? "").toLowerCase().startsWith("multipart/form-data");

const mayUploadResources = (actor: Actor) => actor.kind === "staff" && (actor.permissions.has("ResourceCreate") || actor.permissions.has("ResourceUpdate"));

/**
 * For multipart requests to GraphQL (api/app.ts): 6 MB on the reporters' hosts, 11 MB on the
 * console's, 26 MB there for staff who may upload help documents. A multipart POST needs no CORS
 * preflight, unlike our JSON calls; the origin check (http/origin-guard.ts) keeps other sites' pages out.
 */
export function graphqlUploadGuard(): MiddlewareHandler<AppEnv> {
  const onError = (c: Context) => c.json({ error: TOO_LARGE, message: TOO_LARGE }, 413);
  const staff = requestBodyLimit({ maxSize: GRAPHQL_UPLOAD_BODY_LIMIT_BYTES, onError });
  const resources = requestBodyLimit({ maxSize: RESOURCE_GRAPHQL_UPLOAD_BODY_LIMIT_BYTES, onError });
  const reporter = requestBodyLimit({ maxSize: REPORTER_GRAPHQL_UPLOAD_BODY_LIMIT_BYTES, onError });
  return (c, next) => {
    const state = c.get("state");
    if (state.host.kind !== "app") return reporter(c, next);
    return mayUploadResources(state.actor) ? resources(c, next) : staff(c, next);
  };
}

const ONE_FILE = 'Attach exactly one file per request, in the form field "file".';
/** A solved challenge is a few hundred characters; anything longer is not one. */
const MAX_VERIFY_TOKEN_LENGTH = 1_000;

/**
 * The one file of a multipart body, with the text field "verifyToken" when the page repeats the
 * upload with a solved challenge; anything else (no file, several, a text field posing as one) is refused.
 */
async function readSingleFile(c: Context<AppEnv>): Promise<IncomingAttachment> {
  let form: FormData;
  try {
    form = await c.req.raw.formData();
  } catch {
    throw badInput(ONE_FILE);
  }
  const files = [...form.entries()].filter(([, value]) => typeof value !== "string");
  const [file] = form.getAll("file");
  if (files.length !== 1 || !file || typeof file === "string") throw badInput(ONE_FILE);
  const token = form.get("verifyToken");
  const verifyToken = typeof token === "string" && token.length > 0 && token.length <= MAX_VERIFY_TOKEN_LENGTH ? token : null;
  return { name: file.name, size: file.size, verifyToken, bytes: async () => new Uint8Array(await file.arrayBuffer()) };
}

/** A stored file sent as a download: always a download, never inline, so an uploaded HTML or SVG cannot render on our origin. */
function download(file: { fileName: string; mimeType: string; sizeBytes: number; body: ReadableStream<Uint8Array> }): Response {
  return new Response(file.body, {
    headers: {
      "Content-Type": file.mimeType,
      "Content-Length": String(file.sizeBytes),
      "Content-Disposition": attachmentDisposition(file.fileName),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "no-store",
      "Content-Security-Policy": DOWNLOAD_CSP,
    },
  });
}

/** Report attachments (docs/decisions/008-reporter-api.md, Files), help documents and chat images, mounted at /api/files. */
export function fileRoutes(_services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const uploadLimit = requestBodyLimit({ maxSize: UPLOAD_BODY_LIMIT_BYTES, onError: (c) => c.json({ error: TOO_LARGE, message: TOO_LARGE }, 413) });

  app.post("/report-attachments", uploadLimit, async (c) => {
    try {
      // The session and the form are checked before the body is read (addReportAttachment calls the reader last).
      return c.json(await addReportAttachment(requestCtx(c), () => readSingleFile(c)));
    } catch (error) {
      return errorResponse(c, error);
    }
  });

  app.delete("/report-attachments/:id", async (c) => {
    try {
      await deleteReportAttachment(requestCtx(c), c.req.param("id"));
      return c.json({ ok: true });
    } catch (error) {
      return errorResponse(c, error);
    }
  });

  app.get("/report-attachments/:id", async (c) => {
    try {
      return download(await openReportAttachment(requestCtx(c), c.req.param("id")));
    } catch (error) {
      return errorResponse(c, error);
    }
  });

  app.get("/resource-documents/:id", async (c) => {
    try {
      return download(await openResourceDocument(requestCtx(c), c.req.param("id")));
    } catch (error) {
      return errorResponse(c, error);
    }
  });

  app.get("/organisation-logo/:organisationId", async (c) => {
    try {
      const image = await openOrganisationLogo(requestCtx(c), c.req.param("organisationId"));
      return new Response(image.body, {
        headers: {
          "Content-Type": image.mimeType,
          "Content-Length": String(image.sizeBytes),
          "X-Content-Type-Options": "nosniff",
          // Public, but a changed logo must show at once: revalidate rather than keep.
          "Cache-Control": "no-cache",
          "Content-Security-Policy": CHAT_IMAGE_CSP,
          "Cross-Origin-Resource-Policy": "same-site",
        },
      });
    } catch (error) {
      return errorResponse(c, error);
    }
  });

  app.get("/avatars/:blobId", async (c) => {
    try {
      const image = await openAvatar(requestCtx(c), c.req.param("blobId"));
      return new Response(image.body, {
        headers: {
          "Content-Type": image.mimeType,
          "Content-Length": String(image.sizeBytes),
          "X-Content-Type-Options": "nosniff",
          // Each upload gets a new address, but who may see it can change: ask again each time.
          "Cache-Control": "private, no-cache",
          "Content-Security-Policy": DOWNLOAD_CSP,
        },
      });
    } catch (error) {
      return errorResponse(c, error);
    }
  });

  app.get("/chat-images/:messageId", async (c) => {
    try {
      const image = await openChatImage(requestCtx(c), c.req.param("messageId"));
      return new Response(image.body, {
        headers: {
          "Content-Type": image.mimeType,
          "Content-Length": String(image.sizeBytes),
          // Shown as the chat's preview; the sandboxing CSP below is what makes inline safe for SVG.
          "Content-Disposition": "inline",
          "X-Content-Type-Options": "nosniff",
          "Cache-Control": "no-store",
          "Content-Security-Policy": CHAT_IMAGE_CSP,
        },
      });
    } catch (error) {
      return errorResponse(c, error);
    }
  });

  return app;
}
