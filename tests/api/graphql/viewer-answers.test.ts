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
const kept = (query: string, operationName: string | null = null) => answersFromRow(schema, parse(query), operationName);

describe("the viewer's kept answers", () => {
  test.each([
    ["the console's own viewer query", VIEWER_QUERY],
    ["the settings profile", PROFILE_QUERY],
    ["the bench's viewer", "{ viewer { id email role { name } } }"],
    ["aliases and __typename", "{ me: viewer { __typename who: id role { __typename label permissions } } }"],
    ["fragments on the right types", "query { viewer { ...Mine } } fragment Mine on User { id ... on User { email } role { ...R } } fragment R on Role { name rank }"],
    ["@include and @skip (the variables are in the key)", "query ($full: Boolean!) { viewer { id email @include(if: $full) lastName @skip(if: $full) } }"],
    ["the named operation asked for", "query A { roles { id } } query B { viewer { id } }", "B"],
  ])("answers %s", (_name, query, operationName = null) => {
    expect(kept(query, operationName)).toBe(true);
  });

  test.each([
    ["a mutation", "mutation { changeDetails(input: { firstName: \"A\" }) { id } }"],
    ["another root field beside viewer", "{ viewer { id } roles { id } }"],
    ["only __typename", "{ __typename }"],
    ["an organisation field that reads more than its row", "{ viewer { organisation { id publicURL } } }"],
    ["an organisation column not on the list", "{ viewer { organisation { id abn } } }"],
    ["a fragment typed for somewhere else", "query { viewer { ...O } } fragment O on Organisation { id }"],
    ["an inline fragment typed for somewhere else", "{ viewer { ... on Organisation { id } } }"],
    ["a field given arguments", "{ viewer { id(format: \"long\") } }"],
    ["an unknown directive", "{ viewer { id @deprecated } }"],
    ["another operation of the document", "query A { roles { id } } query B { viewer { id } }", "A"],
    ["a subscription", "subscription { organisationUserDisconnect }"],
  ])("executes %s", (_name, query, operationName = null) => {
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
