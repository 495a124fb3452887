import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { reportConversationMessages } from "../../../db/schema/index.ts";
import { blobStoreState } from "../../fixtures/attachments.ts";
import { CLIENT_SEND_IMAGE, sendImage } from "../../fixtures/chat-images.ts";
import { plainJpeg } from "../../fixtures/files.ts";
import { startDemoWithReporter } from "../../helpers/demo.ts";
import type { ReporterClient } from "../../helpers/reporter.ts";
import type { TestServer } from "../../helpers/server.ts";
import { joinTeam } from "../../helpers/session.ts";

/**
 * A chat image goes to GraphQL as a multipart request (operations, map, files). A form that breaks
 * that shape is a 400 saying what is wrong, an oversized one the spec's 413, and neither stores anything.
 */

let server: TestServer;
let reporter: ReporterClient;
let submissionId: string;

beforeAll(async () => {
  let as;
  ({ server, as, reporter, submissionId } = await startDemoWithReporter());
  await joinTeam(as.owner, submissionId);
  // The blob store's folder exists from the first upload on.
  expect((await sendImage(reporter, { name: "first.jpg", data: plainJpeg(), type: "image/jpeg" })).errors).toBeUndefined();
}, 60_000);
afterAll(() => server.stop());

const OPERATIONS = JSON.stringify({ query: CLIENT_SEND_IMAGE, variables: { imageFile: null } });
const MAP = JSON.stringify({ 0: ["variables.imageFile"] });
const photo = () => new Blob([plainJpeg()], { type: "image/jpeg" });

/** A form with the given parts, in order; a part is text, or a file with a name (empty for none). */
function form(parts: [string, string | { name: string; blob?: Blob }][]): FormData {
  const body = new FormData();
  for (const [key, value] of parts) {
    if (typeof value === "string") body.append(key, value);
    else body.append(key, value.blob ?? photo(), value.name);
  }
  return body;
}
const file = { name: "photo.jpg" };

async function stored() {
  const messages = await server.db.select({ id: reportConversationMessages.id }).from(reportConversationMessages);
  return { messages: messages.length, ...(await blobStoreState(server)) };
}

const OPERATIONS_MESSAGE = 'The form field "operations" must be the GraphQL request as a JSON object.';
const MAP_MESSAGE = 'The form field "map" must be a JSON object naming each file part\'s variables, such as {"0": ["variables.file"]}.';

const refusals: { name: string; parts: [string, string | { name: string }][]; message: string }[] = [
  { name: "operations that are not JSON", parts: [["operations", "{nope"], ["map", MAP], ["0", file]], message: OPERATIONS_MESSAGE },
  { name: "no operations", parts: [["map", MAP], ["0", file]], message: OPERATIONS_MESSAGE },
  { name: "operations that are a list (a batch)", parts: [["operations", `[${OPERATIONS}]`], ["map", MAP], ["0", file]], message: OPERATIONS_MESSAGE },
  { name: "operations that are a number", parts: [["operations", "5"], ["map", MAP], ["0", file]], message: OPERATIONS_MESSAGE },
  { name: "operations sent twice", parts: [["operations", OPERATIONS], ["operations", OPERATIONS], ["map", MAP], ["0", file]], message: OPERATIONS_MESSAGE },
  { name: "a map that is not JSON", parts: [["operations", OPERATIONS], ["map", "{nope"], ["0", file]], message: MAP_MESSAGE },
  { name: "no map", parts: [["operations", OPERATIONS], ["0", file]], message: MAP_MESSAGE },
  { name: "a map that is a list", parts: [["operations", OPERATIONS], ["map", "[1]"], ["0", file]], message: MAP_MESSAGE },
  { name: "a map whose paths are not a list", parts: [["operations", OPERATIONS], ["map", '{"0":"variables.imageFile"}'], ["0", file]], message: MAP_MESSAGE },
  { name: "a map into the prototype", parts: [["operations", OPERATIONS], ["map", '{"0":["variables.__proto__.x"]}'], ["0", file]], message: MAP_MESSAGE },
  { name: "a map outside the variables", parts: [["operations", OPERATIONS], ["map", '{"0":["query"]}'], ["0", file]], message: MAP_MESSAGE },
  { name: "a map naming a file that is not there", parts: [["operations", OPERATIONS], ["map", MAP]], message: 'The file part "0" named in "map" is missing.' },
  { name: "a map naming a text field", parts: [["operations", OPERATIONS], ["map", MAP], ["0", "not a file"]], message: 'The file part "0" named in "map" is missing.' },
  { name: "a file part the map does not name", parts: [["operations", OPERATIONS], ["map", MAP], ["0", file], ["1", file]], message: 'The file part "1" is not named in "map".' },
  { name: "a file with no name", parts: [["operations", OPERATIONS], ["map", MAP], ["0", { name: "" }]], message: 'The file part "0" has no file name.' },
  { name: "another text field", parts: [["operations", OPERATIONS], ["map", MAP], ["0", file], ["extra", "x"]], message: 'Unknown form field "extra": send only "operations", "map" and the files.' },
];

describe("a multipart GraphQL request", () => {
  test("allowed: a well-formed image upload is stored as a message", async () => {
    const before = await stored();
    const answer = await sendImage(reporter, { name: "photo.jpg", data: plainJpeg(), type: "image/jpeg" });
    expect(answer.status).toBe(200);
    expect(answer.errors).toBeUndefined();
    expect((await stored()).messages).toBe(before.messages + 1);
  });

  test.each(refusals)("denied: $name is a 400 that says what is wrong, and nothing is stored", async ({ parts, message }) => {
    const before = await stored();
    const response = await reporter.fetch("/api/gql/query", { method: "POST", body: form(parts), headers: { accept: "application/json" } });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ errors: [{ message, extensions: { code: "BAD_REQUEST" } }] });
    expect(await stored()).toEqual(before);
  });

  test("denied: a body that is not multipart data, or has no boundary, is a 400", async () => {
    for (const contentType of ["multipart/form-data; boundary=xyz", "multipart/form-data"]) {
      const response = await reporter.fetch("/api/gql/query", { method: "POST", headers: { "Content-Type": contentType }, body: "garbage" });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ errors: [{ message: "The upload could not be read as multipart form data.", extensions: { code: "BAD_REQUEST" } }] });
    }
  });

  test("denied: a file over the upload limit is the spec's 413, and nothing is stored", async () => {
    const before = await stored();
    const answer = await sendImage(reporter, { name: "huge.jpg", data: new Uint8Array(6_500_000) });
    expect(answer.status).toBe(413);
    expect(answer).toMatchObject({ error: "413 Request Entity Too Large" });
    expect(await stored()).toEqual(before);
  });
});
