import { getNamedType, getOperationAST, isObjectType, Kind, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode } from "graphql";

/**
 * Which answers the `viewer` row copies (users/viewer-cache.ts) can give whole, without executing
 * the operation again (decision 025, second addendum).
 *
 * An operation qualifies when it is a query that asks for `viewer` and nothing else, and every
 * field it reaches below is on the list here: fields whose value is a pure function of what the
 * row copy holds (the user's row, the role it names, the organisation's own columns) and of the
 * asking session's kind, which is part of the key. A role row never changes; a change to the user
 * or the organisation ends the answers as it ends the row copies: the same events, the same
 * own-change rule, the same age limit. So an answer is exactly as current as the row copy it was
 * computed from. A field not on the list (an organisation's counts or address, a field added
 * later) makes the operation execute as usual: the list is what is proven, not what is excluded.
 */
const ROW_FIELDS: Readonly<Record<string, ReadonlySet<string>>> = {
  User: new Set([
    "id",
    "email",
    "username",
    "firstName",
    "lastName",
    "verified",
    "suspended",
    "isSSO",
    "twoFactorAuthenticationActivated",
    "twoFactorAuthenticationIsSet",
    "avatar",
    "hasRecoveryCode",
    // The asking session's own: its kind and user are both in the key.
    "pass2FA",
    "role",
    // Hidden from a session that owes its passcode: again the session's kind.
    "organisation",
  ]),
  Organisation: new Set(["id", "name", "slug"]),
  Role: new Set(["id", "name", "rank", "label", "permissions"]),
  Avatar: new Set(["id", "fileURL"]),
};

/** @include and @skip decide by the variables, which are part of the key; any other directive disqualifies. */
const VARIABLE_DIRECTIVES = new Set(["include", "skip"]);
/** Longer texts are executed as usual: the key holds the whole text, and the copies are bounded by count. */
const MAX_KEY_TEXT = 4_096;

const verdicts = new WeakMap<DocumentNode, Map<string | null, boolean>>();

/**
 * The key of this operation's answer among the user's row copies, or null when its answer is not
 * kept. `actorKind` is part of it, as the answer may differ between a signed-in staff member and
 * one who still owes a passcode.
 */
export function keptAnswerKey(
  schema: GraphQLSchema,
  document: DocumentNode,
  query: string,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
  actorKind: string,
): string | null {
  if (query.length > MAX_KEY_TEXT || !answersFromRow(schema, document, operationName ?? null)) return null;
  const variablesText = variables ? JSON.stringify(variables) : "";
  if (query.length + variablesText.length > MAX_KEY_TEXT) return null;
  // "answer" first: the row copies' keys are their query configuration as JSON, which starts with "{".
  // No name and an empty name are different requests (graphql-js finds no operation named "").
  const name = operationName === null || operationName === undefined ? "-" : `=${operationName}`;
  return `answer\u0000${actorKind}\u0000${name}\u0000${variablesText}\u0000${query}`;
}

/** Whether the operation asks only for `viewer` and, below it, only row fields; decided once per parsed document. */
export function answersFromRow(schema: GraphQLSchema, document: DocumentNode, operationName: string | null): boolean {
  let byOperation = verdicts.get(document);
  if (!byOperation) verdicts.set(document, (byOperation = new Map()));
  const known = byOperation.get(operationName);
  if (known !== undefined) return known;
  const operation = getOperationAST(document, operationName);
  // A name the document does not define is not remembered: the client chooses it, so it could be anything.
  if (!operation) return false;
  const verdict = decide(schema, document, operation);
  byOperation.set(operationName, verdict);
  return verdict;
}

function decide(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): boolean {
  const queryType = schema.getQueryType();
  if (operation.operation !== "query" || !queryType) return false;
  const fragments = new Map<string, SelectionSetNode & { typeCondition: string }>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, { ...definition.selectionSet, typeCondition: definition.typeCondition.name.value });
  }
  let askedViewer = false;
  // A fragment spread a second time makes the operation execute as usual: that costs nothing but the
  // saving, and the walk then ends on any document, cycles included, without relying on validation.
  const entered = new Set<string>();

  const walk = (selectionSet: SelectionSetNode, typeName: string): boolean => {
    for (const selection of selectionSet.selections) {
      if (selection.directives?.some((directive) => !VARIABLE_DIRECTIVES.has(directive.name.value))) return false;
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (selection.typeCondition && selection.typeCondition.name.value !== typeName) return false;
        if (!walk(selection.selectionSet, typeName)) return false;
        continue;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(selection.name.value);
        if (!fragment || fragment.typeCondition !== typeName || entered.has(selection.name.value)) return false;
        entered.add(selection.name.value);
        if (!walk(fragment, typeName)) return false;
        continue;
      }
      const name = selection.name.value;
      if (name === "__typename") continue;
      if (typeName === queryType.name) {
        if (name !== "viewer") return false;
        askedViewer = true;
      } else if (!ROW_FIELDS[typeName]?.has(name)) {
        return false;
      }
      if (selection.arguments?.length) return false;
      const parent = schema.getType(typeName);
      const field = isObjectType(parent) ? parent.getFields()[name] : undefined;
      if (!field) return false;
      if (selection.selectionSet && !walk(selection.selectionSet, getNamedType(field.type).name)) return false;
    }
    return true;
  };

  return walk(operation.selectionSet, queryType.name) && askedViewer;
}
