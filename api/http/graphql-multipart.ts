import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "./types.ts";

/**
 * The GraphQL multipart request (chat images): a form with `operations` (the GraphQL request as
 * JSON), `map` (which file part goes into which variable) and the file parts. Yoga reads it
 * leniently: broken JSON answered 200, a `map` that is a list surfaced as an unexpected error, and
 * file parts that no variable named were dropped silently. Here the whole form is checked first, so
 * a malformed upload is a 400 that says what is wrong and never reaches a resolver (nothing is stored).
 */

const OPERATIONS = 'The form field "operations" must be the GraphQL request as a JSON object.';
const MAP = 'The form field "map" must be a JSON object naming each file part\'s variables, such as {"0": ["variables.file"]}.';
const UNREADABLE = "The upload could not be read as multipart form data.";
const missingFile = (key: string) => `The file part "${key}" named in "map" is missing.`;
const unmapped = (key: string) => `The file part "${key}" is not named in "map".`;
const nameless = (key: string) => `The file part "${key}" has no file name.`;
const unknownField = (key: string) => `Unknown form field "${key}": send only "operations", "map" and the files.`;

/** A variable path a file may go to: `variables.` and names that are not an object's own machinery. */
const isVariablePath = (path: unknown) =>
  typeof path === "string" && path.startsWith("variables.") && path.split(".").every((part) => part !== "" && part !== "__proto__" && part !== "constructor" && part !== "prototype");

function parseJson(text: FormDataEntryValue | null): unknown {
  if (typeof text !== "string") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** What is wrong with the form, or null when Yoga may read it. */
export function multipartProblem(form: FormData): string | null {
  const operations = parseJson(form.get("operations"));
  if (!isObject(operations)) return OPERATIONS;
  const map = parseJson(form.get("map"));
  if (!isObject(map)) return MAP;
  for (const paths of Object.values(map)) {
    if (!Array.isArray(paths) || paths.length === 0 || !paths.every(isVariablePath)) return MAP;
  }
  for (const key of Object.keys(map)) {
    const parts = form.getAll(key);
    if (parts.length !== 1 || typeof parts[0] === "string") return missingFile(key);
  }
  for (const [key, value] of form.entries()) {
    if (key === "operations" || key === "map") {
      if (form.getAll(key).length !== 1) return key === "map" ? MAP : OPERATIONS;
      continue;
    }
    if (typeof value === "string") return unknownField(key);
    if (!Object.hasOwn(map, key)) return unmapped(key);
    // A part sent without a filename reaches us as a Blob with no name at all.
    const name: unknown = (value as { name?: unknown }).name;
    if (typeof name !== "string" || name.trim() === "") return nameless(key);
  }
  return null;
}

const badRequest = (c: Context, message: string) => c.json({ errors: [{ message, extensions: { code: "BAD_REQUEST" } }] }, 400);

/** Runs after the upload's body limit, so the form read here is bounded; Yoga reads its own copy. */
export function multipartOperationsGuard(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    let form: FormData;
    try {
      form = await c.req.raw.clone().formData();
    } catch {
      return badRequest(c, UNREADABLE);
    }
    const problem = multipartProblem(form);
    if (problem) return badRequest(c, problem);
    await next();
  };
}
