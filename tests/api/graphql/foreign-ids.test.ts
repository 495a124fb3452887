import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getNamedType, isLeafType } from "graphql";
import { schema } from "../../../api/graphql/schema.ts";
import { startForeignWorld } from "../../helpers/foreign-world.ts";
import { organisationRows } from "../../helpers/organisation-rows.ts";
import type { ReporterClient } from "../../helpers/reporter.ts";
import type { TestServer } from "../../helpers/server.ts";
import type { StaffClient } from "../../helpers/session.ts";
import { CASES, NOT_APPLICABLE, type CaseActor, type World } from "./foreign-id-cases.ts";
import { textPositions } from "./schema-sweep.ts";

/**
 * Authorisation before validation (decision 065): a mutation given another organisation's id
 * answers exactly as it does an id that names nothing, whatever else its input holds, and
 * changes nothing there. The positions come from the built schema, so a new id argument fails
 * here until it is a case or named as not applicable.
 */

type Answer = { data?: unknown; errors?: { message: string; extensions?: { code?: string; fields?: unknown } }[] };

let server: TestServer;
const world: World = {};
const senders = {} as Record<CaseActor, (query: string, variables: Record<string, unknown>) => Promise<Answer>>;

/** An id-like position: an ID, or a text whose name says it holds one. */
const idPositions = () =>
  textPositions()
    .filter((position) => position.root === "mutation" && (position.typeName === "ID" || /(^id|ID|Id)s?$/.test(position.path.at(-1)!)))
    .map((position) => position.label);

const staffSender = (client: StaffClient) => (query: string, variables: Record<string, unknown>) => client.gql(query, variables) as Promise<Answer>;
const reporterSender = (client: ReporterClient) => (query: string, variables: Record<string, unknown>) => client.gql(query, variables) as Promise<Answer>;

/** The mutation with each given variable declared as the schema types its argument. */
function documentFor(label: string, variables: Record<string, unknown>): string {
  const name = label.slice(0, label.indexOf("("));
  const field = schema.getMutationType()!.getFields()[name]!;
  const used = field.args.filter((argument) => argument.name in variables);
  const declarations = used.map((argument) => `$${argument.name}: ${String(argument.type)}`).join(", ");
  const call = used.map((argument) => `${argument.name}: $${argument.name}`).join(", ");
  const selection = isLeafType(getNamedType(field.type)) ? "" : " { __typename }";
  return `mutation${declarations ? ` (${declarations})` : ""} { ${name}${call ? `(${call})` : ""}${selection} }`;
}

beforeAll(async () => {
  const started = await startForeignWorld();
  server = started.server;
  Object.assign(world, started.world);
  Object.assign(senders, {
    owner: staffSender(started.staff.owner),
    guest: staffSender(started.staff.guest),
    superAdmin: staffSender(started.staff.superAdmin),
    reporter: reporterSender(started.reporters.reporter),
    drafter: reporterSender(started.reporters.drafter),
    visitor: reporterSender(started.reporters.visitor),
  });
}, 120_000);
afterAll(() => server.stop());

describe("another organisation's id", () => {
  test("every id-like mutation argument is a case here or named as not applicable, and none is both", () => {
    const positions = idPositions().sort();
    expect(positions.length).toBeGreaterThan(60);
    expect([...Object.keys(CASES), ...Object.keys(NOT_APPLICABLE)].sort()).toEqual(positions);
    expect(Object.keys(CASES).filter((label) => label in NOT_APPLICABLE)).toEqual([]);
  });

  test("is answered as an unknown id is, not found, whatever else the input holds, and changes nothing there", async () => {
    const faults: string[] = [];
    for (const [label, run] of Object.entries(CASES)) {
      if (!run.foreign) continue;
      const before = await organisationRows(server, world.demo!);
      const foreign = await senders[run.as](documentFor(label, run.variables(run.foreign(world), world)), run.variables(run.foreign(world), world));
      const unknown = await senders[run.as](documentFor(label, run.variables(crypto.randomUUID(), world)), run.variables(crypto.randomUUID(), world));
      const code = foreign.errors?.[0]?.extensions?.code;
      if (run.alike) {
        if (JSON.stringify(foreign) !== JSON.stringify(unknown)) faults.push(`${label}: ${JSON.stringify(foreign)} but for an unknown id ${JSON.stringify(unknown)}`);
      } else if (code !== "NOT_FOUND") faults.push(`${label}: ${code ?? "accepted"} ${foreign.errors?.[0]?.message ?? JSON.stringify(foreign.data)}`);
      else if (JSON.stringify(foreign) !== JSON.stringify(unknown)) faults.push(`${label}: ${JSON.stringify(foreign)} but for an unknown id ${JSON.stringify(unknown)}`);
      if ((await organisationRows(server, world.demo!)) !== before) faults.push(`${label}: changed organisation B`);
    }
    expect(faults).toEqual([]);
  }, 120_000);

  test("an unknown id is not found before the rest of the input is judged, for the super admin too", async () => {
    const faults: string[] = [];
    for (const [label, run] of Object.entries(CASES)) {
      if (run.alike) continue;
      // The super admin names any organisation: an unknown one must be refused before the input is judged too.
      const actors: CaseActor[] = run.as === "owner" && label.endsWith("organisationID)") ? ["owner", "superAdmin"] : [run.as];
      for (const actor of actors) {
        const variables = run.variables(crypto.randomUUID(), world);
        const answer = await senders[actor](documentFor(label, variables), variables);
        const code = answer.errors?.[0]?.extensions?.code;
        if (code !== "NOT_FOUND") faults.push(`${label} as ${actor}: ${code ?? "accepted"} ${answer.errors?.[0]?.message ?? JSON.stringify(answer.data)}`);
      }
    }
    expect(faults).toEqual([]);
  }, 120_000);
});
