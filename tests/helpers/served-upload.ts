import { expect } from "bun:test";
import { upload } from "../fixtures/attachments.ts";
import { containsText, pngWithText } from "../fixtures/files.ts";
import { ReporterClient } from "./reporter.ts";
import type { TestServer } from "./server.ts";

/**
 * For servers started as operators start them (`bun run start`, the executable): a reporter's
 * upload goes through the cleaning worker those builds carry as an entry of their own (decision 060).
 */

/** A reporter starts a report on the demo's main form and attaches a picture with an author: it is stored without it. */
export async function uploadCleaned(server: { origin: string; port: number }, organisationPage: string): Promise<void> {
  // The main form's row: its name, then its link (other forms may ask for a password first).
  const formId = /<td>Workplace Misconduct Report<\/td>[^]*?\/report\/([0-9a-f-]{36})/.exec(organisationPage)?.[1];
  expect(formId).toBeString();
  const http = {
    fetch(path: string, init: RequestInit & { host?: string } = {}) {
      const { host, ...rest } = init;
      const headers = new Headers(rest.headers);
      headers.set("Host", `${host ?? "localhost"}:${server.port}`);
      return fetch(`${server.origin}${path}`, { ...rest, headers, redirect: "manual" });
    },
  } as TestServer;
  // As a browser sends it: a server started as an operator starts it is not a test's, and checks the origin of every change.
  const reporter = new ReporterClient(http, "demo.localhost", { Origin: `http://demo.localhost:${server.port}` });
  expect(await reporter.post("/api/auth/report_start", { reportFormID: formId })).toMatchObject({ status: 200 });
  const picture = pngWithText();
  expect(containsText(picture, "Jane Reporter")).toBe(true);
  const answer = await upload(reporter, "evidence.png", picture);
  expect(answer).toMatchObject({ status: 200, body: { fileName: "evidence.png", metadataRemoved: true } });
  // The author's text chunk and the time went: the worker cleaned it.
  expect(answer.body.fileSizeBytes).toBeLessThan(picture.length);
}
