import {
  getNamedType,
  getNullableType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
} from "graphql";
import { schema } from "../../../api/graphql/schema.ts";

/** One String or ID position a client can fill: an argument, or a field of an input object under it (any depth). */
export interface TextPosition {
  root: "query" | "mutation" | "subscription";
  field: GraphQLField<unknown, unknown>;
  /** The argument's name, then input field names down to the text. */
  path: string[];
  /** Schema coordinate of the text: `Type.field(arg:)` or `InputType.field`. */
  coordinate: string;
  typeName: string;
  label: string;
}

const isText = (type: GraphQLInputType) => {
  const named = getNamedType(type);
  return isScalarType(named) && (named.name === "String" || named.name === "ID");
};

function positionsIn(type: GraphQLInputType, path: string[], coordinate: string, visited: Set<string>, out: (path: string[], coordinate: string, typeName: string) => void) {
  const named = getNamedType(type);
  if (isText(type)) return out(path, coordinate, named.name);
  if (!isInputObjectType(named) || visited.has(named.name)) return;
  const inner = new Set([...visited, named.name]);
  for (const field of Object.values(named.getFields())) positionsIn(field.type, [...path, field.name], `${named.name}.${field.name}`, inner, out);
}

/** Every text position of every root field of the built schema. */
export function textPositions(): TextPosition[] {
  const roots: [TextPosition["root"], GraphQLObjectType | null | undefined][] = [
    ["query", schema.getQueryType()],
    ["mutation", schema.getMutationType()],
    ["subscription", schema.getSubscriptionType()],
  ];
  const positions: TextPosition[] = [];
  for (const [root, type] of roots) {
    for (const field of Object.values(type?.getFields() ?? {})) {
      for (const argument of field.args) {
        positionsIn(argument.type, [argument.name], `${type!.name}.${field.name}(${argument.name}:)`, new Set(), (path, coordinate, typeName) =>
          positions.push({ root, field, path, coordinate, typeName, label: `${field.name}(${path.join(".")})` }),
        );
      }
    }
  }
  return positions;
}

/** Real ids and texts of the demo, so the operation would get as far as it can with one bad text. */
export interface Plausible {
  ids: Record<string, string>;
  texts: Record<string, string | string[]>;
}

function plausibleValue(type: GraphQLInputType, name: string, fieldName: string, plausible: Plausible): unknown {
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    const item = plausibleValue(nullable.ofType, name, fieldName, plausible);
    return item === undefined ? [] : Array.isArray(item) ? item : [item];
  }
  if (isInputObjectType(nullable)) {
    const value: Record<string, unknown> = {};
    for (const field of Object.values(nullable.getFields())) {
      const filled = plausibleValue(field.type, field.name, fieldName, plausible);
      if (filled !== undefined && (isNonNullType(field.type) || field.name in plausible.texts || field.name in plausible.ids)) value[field.name] = filled;
    }
    return value;
  }
  if (isEnumType(nullable)) return nullable.getValues()[0]!.name;
  switch (isScalarType(nullable) ? nullable.name : "") {
    case "ID":
      return plausible.ids[`${fieldName}.${name}`] ?? plausible.ids[name] ?? crypto.randomUUID();
    case "String":
      return plausible.texts[name] ?? "Plausible text";
    case "Int":
    case "Float":
      return 0;
    case "Boolean":
      return false;
    default:
      return undefined; // files: left out
  }
}

function setAt(target: Record<string, unknown>, path: string[], value: string, type: GraphQLInputType) {
  const [head, ...rest] = path;
  if (rest.length === 0) {
    target[head!] = isListType(getNullableType(type)) ? [value] : value;
    return;
  }
  const named = getNamedType(type);
  if (!isInputObjectType(named)) throw new Error(`no input object at ${head}`);
  const current = target[head!];
  const holder = (Array.isArray(current) ? current[0] : current) as Record<string, unknown> | undefined;
  const object = holder ?? {};
  if (!holder) target[head!] = isListType(getNullableType(type)) ? [object] : object;
  setAt(object, rest, value, named.getFields()[rest[0]!]!.type);
}

const printedType = (argument: GraphQLArgument) => String(argument.type);

/** The operation for one position: every argument a variable, plausible values, and `text` at the position. */
export function operationFor(position: TextPosition, text: string, plausible: Plausible): { query: string; variables: Record<string, unknown> } {
  const { field } = position;
  const args: Record<string, unknown> = {};
  for (const argument of field.args) {
    const value = plausibleValue(argument.type, argument.name, field.name, plausible);
    const wanted = isNonNullType(argument.type) || argument.name in plausible.texts || argument.name in plausible.ids || `${field.name}.${argument.name}` in plausible.ids;
    if (value !== undefined && wanted) args[argument.name] = value;
  }
  const argument = field.args.find((arg) => arg.name === position.path[0])!;
  setAt(args, position.path, text, argument.type);
  const used = field.args.filter((arg) => arg.name in args);
  const declarations = used.map((arg) => `$${arg.name}: ${printedType(arg)}`).join(", ");
  const call = used.map((arg) => `${arg.name}: $${arg.name}`).join(", ");
  const selection = isCompositeType(getNamedType(field.type)) ? " { __typename }" : "";
  const query = `${position.root}${declarations ? ` (${declarations})` : ""} { ${field.name}${call ? `(${call})` : ""}${selection} }`;
  return { query, variables: args };
}
