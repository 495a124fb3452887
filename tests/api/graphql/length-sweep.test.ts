import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { resolveSchemaCoordinate } from "graphql";
import { schema } from "../../../api/graphql/schema.ts";
import { TEXT_ARGUMENT_LIMITS, textLimitOf } from "../../../api/graphql/input-guard.ts";
import { SEARCH_TEXT } from "../../../api/shared/limits.ts";
import type { TextPosition } from "./schema-sweep.ts";
import { startSweep, sweepOverHttp, sweepSubscriptions } from "./sweep-actors.ts";

/**
 * Every String and ID argument has a bound. A megabyte of text in any of them (an 880 KB search
 * once stalled the embedded database) is the client's error, with the bound's own message.
 */

let sweep: Awaited<ReturnType<typeof startSweep>>;

beforeAll(async () => {
  sweep = await startSweep();
}, 60_000);
afterAll(() => sweep.server.stop());

// Under the 1 MiB limit of a JSON body, so it reaches GraphQL.
const MEGABYTE = "x".repeat(1_000_000);
const boundMessage = (position: TextPosition) => textLimitOf(position.coordinate, position.typeName).tooLong;

describe("the bound of every text argument", () => {
  test("every bound the table names is an argument or input field of the schema", () => {
    for (const coordinate of Object.keys(TEXT_ARGUMENT_LIMITS)) {
      expect({ coordinate, kind: resolveSchemaCoordinate(schema, coordinate)?.kind }).toMatchObject({ kind: expect.stringMatching(/^(FieldArgument|InputField)$/) });
    }
  });

  test("a megabyte in any argument is refused with its bound's message, for every actor, changing nothing", async () => {
    const before = await sweep.auditCount();
    expect(await sweepOverHttp(sweep, MEGABYTE, boundMessage)).toEqual([]);
    expect(await sweep.auditCount()).toBe(before);
    expect((await sweep.actors[1]!.post("{ viewer { id } }", {})).body.errors).toBeUndefined();
  }, 180_000);

  test("a megabyte in a subscription's argument is refused over graphql-ws", async () => {
    expect(await sweepSubscriptions(sweep, MEGABYTE, boundMessage)).toEqual([]);
  }, 60_000);

  test("a megabyte inline in the document is refused too", async () => {
    const answer = await sweep.actors[2]!.post(`query { tags(search: "${MEGABYTE}") { total } }`, {});
    expect(answer.body.errors?.[0]).toMatchObject({ message: SEARCH_TEXT.tooLong, extensions: { code: "BAD_USER_INPUT" } });
  });
});
