import { describe, expect, test } from "bun:test";
import { parse } from "graphql";
import { schema } from "../../../api/graphql/schema.ts";
import { answersFromRow, keptAnswerKey } from "../../../api/graphql/viewer-answers.ts";
import { VIEWER_QUERY } from "../../../site/src/admin/viewer.ts";
import { PROFILE_QUERY } from "../../../site/src/admin/features/settings/settings-api.ts";

/**
 * Which operations the viewer's kept answers may answer (api/graphql/viewer-answers.ts): only a
 * query for `viewer` whose every field is a pure function of the row copy and the session's kind.
 * Anything else must execute, or a change the row copies do not hear of would be served stale.
 */
const kept = (query: string, operationName: string | null) => answersFromRow(schema, parse(query), operationName);

describe("the viewer's kept answers", () => {
  test.each([
    ["the console's own viewer query", VIEWER_QUERY, null],
    ["the settings profile", PROFILE_QUERY, null],
    ["the bench's viewer", "{ viewer { id email role { name } } }", null],
    ["aliases and __typename", "{ me: viewer { __typename who: id role { __typename label permissions } } }", null],
    ["fragments on the right types", "query { viewer { ...Mine } } fragment Mine on User { id ... on User { email } role { ...R } } fragment R on Role { name rank }", null],
    ["@include and @skip (the variables are in the key)", "query ($full: Boolean!) { viewer { id email @include(if: $full) lastName @skip(if: $full) } }", null],
    ["the named operation asked for", "query A { roles { id } } query B { viewer { id } }", "B"],
  ])("answers %s", (_name: string, query: string, operationName: string | null) => {
    expect(kept(query, operationName)).toBe(true);
  });

  test.each([
    ["a mutation", "mutation { changeDetails(input: { firstName: \"A\" }) { id } }", null],
    ["another root field beside viewer", "{ viewer { id } roles { id } }", null],
    ["only __typename", "{ __typename }", null],
    ["an organisation field that reads more than its row", "{ viewer { organisation { id publicURL } } }", null],
    ["an organisation column not on the list", "{ viewer { organisation { id abn } } }", null],
    ["a fragment typed for somewhere else", "query { viewer { ...O } } fragment O on Organisation { id }", null],
    ["an inline fragment typed for somewhere else", "{ viewer { ... on Organisation { id } } }", null],
    ["a field given arguments", "{ viewer { id(format: \"long\") } }", null],
    ["an unknown directive", "{ viewer { id @deprecated } }", null],
    ["another operation of the document", "query A { roles { id } } query B { viewer { id } }", "A"],
    ["a subscription", "subscription { organisationUserDisconnect }", null],
    ["an empty operation name, which names no operation", "{ viewer { id } }", ""],
  ])("executes %s", (_name: string, query: string, operationName: string | null) => {
    expect(kept(query, operationName)).toBe(false);
  });

  test("keys an answer by the session's kind, the operation and the variables", () => {
    const query = "query V($full: Boolean!) { viewer { id email @include(if: $full) } }";
    const document = parse(query);
    const staff = keptAnswerKey(schema, document, query, "V", { full: true }, "staff");
    expect(staff).not.toBeNull();
    expect(keptAnswerKey(schema, document, query, "V", { full: true }, "two-factor-pending")).not.toBe(staff);
    expect(keptAnswerKey(schema, document, query, "V", { full: false }, "staff")).not.toBe(staff);
    expect(keptAnswerKey(schema, document, query, "V", { full: true }, "staff")).toBe(staff);
    // A row copy's key is its query configuration as JSON: an answer's key can never be one.
    expect(staff!.startsWith("{")).toBe(false);
  });

  test("keeps no answer for a text too long to be a key", () => {
    const query = `{ viewer { id ${"firstName ".repeat(500)}} }`;
    expect(keptAnswerKey(schema, parse(query), query, null, null, "staff")).toBeNull();
  });
});
