import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { parse } from "graphql";
import { tags, userActivities } from "../../../db/schema/index.ts";
import { textProblem } from "../../../api/graphql/input-guard.ts";
import { schema } from "../../../api/graphql/schema.ts";
import { UserError } from "../../../api/lib/errors.ts";
import { parseWith, searchTextOf } from "../../../api/lib/validation.ts";
import { NUL_NOT_ALLOWED, SEARCH_TEXT } from "../../../api/shared/limits.ts";
import * as v from "valibot";
import { startDemoWithStaff } from "../../helpers/demo.ts";

/** The places the security review named, one by one: NUL and overlong texts are the client's error. */

let demo: Awaited<ReturnType<typeof startDemoWithStaff>>;

beforeAll(async () => {
  demo = await startDemoWithStaff();
}, 60_000);
afterAll(() => demo.server.stop());

type Answer = { data?: Record<string, unknown> | null; errors?: { message: string; extensions?: { code?: string; fields?: { field: string; message: string }[] } }[] };

const refusedWith = (message: string) => ({ errors: [{ message, extensions: { code: "BAD_USER_INPUT" } }] });
const auditCount = async () => (await demo.server.db.select({ n: count() }).from(userActivities))[0]!.n;

const SEARCHES: [string, (search: string) => Promise<Answer>][] = [
  ["tags", (search) => demo.as.owner.gql(`query ($s: String) { tags(search: $s) { total } }`, { s: search })],
  ["users", (search) => demo.as.owner.gql(`query ($s: String) { users(search: $s) { total } }`, { s: search })],
  ["reportSubmissions", (search) => demo.as.owner.gql(`query ($s: String) { reportSubmissions(search: { text: $s }) { total } }`, { s: search })],
  ["reportConversations", (search) => demo.as.owner.gql(`query ($s: String) { reportConversations(search: $s) { total } }`, { s: search })],
];

describe("tagCreate", () => {
  test("a name with NUL is refused and no tag is made", async () => {
    const before = (await demo.server.db.select({ n: count() }).from(tags).where(eq(tags.organisationId, demo.demoId)))[0]!.n;
    const audits = await auditCount();
    const answer = await demo.as.owner.gql(`mutation ($name: String!) { tagCreate(name: $name) { id } }`, { name: "Fraud\u0000" });
    expect(answer).toMatchObject(refusedWith(NUL_NOT_ALLOWED));
    expect((await demo.server.db.select({ n: count() }).from(tags).where(eq(tags.organisationId, demo.demoId)))[0]!.n).toBe(before);
    expect(await auditCount()).toBe(audits);
  });

  test("allowed: a plain name still makes the tag", async () => {
    const answer = await demo.as.owner.gql<{ tagCreate: { name: string } }>(`mutation { tagCreate(name: "Plain name") { name } }`);
    expect(answer.data?.tagCreate.name).toBe("Plain name");
  });
});

describe("the searches", () => {
  for (const [name, search] of SEARCHES) {
    test(`${name}: NUL is refused; ${SEARCH_TEXT.max} characters are searched, one more and 880 KB are refused`, async () => {
      expect(await search("a\u0000")).toMatchObject(refusedWith(NUL_NOT_ALLOWED));
      const atBound = await search("z".repeat(SEARCH_TEXT.max));
      expect(atBound.errors).toBeUndefined();
      expect(Object.values(atBound.data ?? {})[0]).toMatchObject({ total: 0 });
      expect(await search("z".repeat(SEARCH_TEXT.max + 1))).toMatchObject(refusedWith(SEARCH_TEXT.tooLong));
      expect(await search("z".repeat(880_000))).toMatchObject(refusedWith(SEARCH_TEXT.tooLong));
    });
  }

  test("the Assign Users dialog's search is bounded the same way", async () => {
    const [report] = (await demo.as.owner.gql<{ reportSubmissions: { list: { id: string }[] } }>(`{ reportSubmissions(limit: 1) { list { id } } }`)).data!.reportSubmissions.list;
    const query = `query ($id: ID!, $s: String) { reportSubmissionAssignableUsers(reportSubmissionID: $id, search: $s) { total } }`;
    expect(await demo.as.owner.gql(query, { id: report!.id, s: "\u0000" })).toMatchObject(refusedWith(NUL_NOT_ALLOWED));
    expect(await demo.as.owner.gql(query, { id: report!.id, s: "z".repeat(SEARCH_TEXT.max + 1) })).toMatchObject(refusedWith(SEARCH_TEXT.tooLong));
  });
});

describe("userActivities(objectID)", () => {
  test("NUL is refused; a plain id still lists", async () => {
    const query = `query ($o: ID) { userActivities(objectID: $o) { total } }`;
    expect(await demo.as.owner.gql(query, { o: "obj\u0000" })).toMatchObject(refusedWith(NUL_NOT_ALLOWED));
    expect((await demo.as.owner.gql(query, { o: crypto.randomUUID() })).errors).toBeUndefined();
    expect((await demo.as.superAdmin.gql(query, { o: "\u0000" })).errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });
});

describe("the checks behind the edge", () => {
  test("parseWith refuses NUL anywhere in its input, naming the field", () => {
    const schemaOf = v.object({ outer: v.object({ inner: v.array(v.string()) }) });
    try {
      parseWith(schemaOf, { outer: { inner: ["ok", "b\u0000d"] } });
      throw new Error("accepted");
    } catch (error) {
      expect(error).toBeInstanceOf(UserError);
      expect(error).toMatchObject({ code: "BAD_USER_INPUT", message: NUL_NOT_ALLOWED, fields: [{ field: "outer.inner.1", message: NUL_NOT_ALLOWED }] });
    }
  });

  test("a list's search text is trimmed and bounded wherever it comes from", () => {
    expect(searchTextOf("  fraud ")).toBe("fraud");
    expect(searchTextOf(null)).toBe("");
    expect(() => searchTextOf("x".repeat(SEARCH_TEXT.max + 1))).toThrow(SEARCH_TEXT.tooLong);
    expect(() => searchTextOf("\u0000")).toThrow(NUL_NOT_ALLOWED);
  });

  test("the guard reads literals, variables, defaults and input objects; an argument it does not bound is short", () => {
    const problem = (document: string, variables: Record<string, unknown> = {}) => textProblem(schema, parse(document), variables)?.message ?? null;
    expect(problem(`{ tags(search: "fine") { total } }`)).toBeNull();
    expect(problem(`query ($t: ReportSearchInput) { reportSubmissions(search: $t) { total } }`, { t: { text: "\u0000" } })).toBe(NUL_NOT_ALLOWED);
    expect(problem(`query ($s: String = "${"x".repeat(201)}") { tags(search: $s) { total } }`)).toBe(SEARCH_TEXT.tooLong);
    expect(problem(`query ($s: String = "${"x".repeat(201)}") { tags(search: $s) { total } }`, { s: "fine" })).toBeNull();
    expect(problem(`{ tagGet(id: "${"x".repeat(101)}") { id } }`)).toBe("Must be at most 100 characters");
    const note = "n".repeat(10_000);
    expect(problem(`mutation ($n: String!) { reportSubmissionNoteCreate(reportSubmissionID: "x", note: $n) { id } }`, { n: note })).toBeNull();
  });
});
