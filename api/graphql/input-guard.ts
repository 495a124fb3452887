import {
  getNamedType,
  getNullableType,
  GraphQLError,
  isInputObjectType,
  isListType,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type ValueNode,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import { FORM_LIMITS, NUL_CHARACTER, NUL_NOT_ALLOWED, TEXT_LIMITS, type TextLimit } from "../shared/limits.ts";
import { RESOURCE_TEXT_LIMITS } from "../shared/resources.ts";

/**
 * Every String and ID argument and input field (by schema coordinate) whose text may be longer than
 * the default for its type. The numbers live in api/shared/limits.ts; the modules validate with the same.
 */
export const TEXT_ARGUMENT_LIMITS: Record<string, TextLimit> = {
  "Query.reportConversations(search:)": TEXT_LIMITS.search,
  "Query.reportSubmissionAssignableUsers(search:)": TEXT_LIMITS.search,
  "Query.tags(search:)": TEXT_LIMITS.search,
  "Query.users(search:)": TEXT_LIMITS.search,
  "ReportSearchInput.text": TEXT_LIMITS.search,
  "DateFilterInput.from": TEXT_LIMITS.date,
  "DateFilterInput.to": TEXT_LIMITS.date,
  "ChangeDetailsInput.email": TEXT_LIMITS.email,
  "ChangeDetailsInput.firstName": TEXT_LIMITS.personName,
  "ChangeDetailsInput.lastName": TEXT_LIMITS.personName,
  "ChangeDetailsInput.avatarBlobID": TEXT_LIMITS.id,
  "Mutation.changePassword(oldPassword:)": TEXT_LIMITS.password,
  "Mutation.changePassword(newPassword:)": TEXT_LIMITS.password,
  // The current password given as proof of the account (decision 061): as long as a password may be.
  "ChangeDetailsInput.password": TEXT_LIMITS.password,
  "UserUpdateInput.ownPassword": TEXT_LIMITS.password,
  "OrganisationUpdateInput.ownPassword": TEXT_LIMITS.password,
  "Query.twoFactorRecoveryCode(password:)": TEXT_LIMITS.password,
  "Mutation.userTwoFactorAuthenticationUpdate(password:)": TEXT_LIMITS.password,
  "Mutation.userReportSubmissionChangePassword(oldPassword:)": TEXT_LIMITS.password,
  "Mutation.userReportSubmissionChangePassword(newPassword:)": TEXT_LIMITS.password,
  "Mutation.reportFormUnlock(password:)": TEXT_LIMITS.password,
  "Mutation.guestSendEnquiry(message:)": TEXT_LIMITS.chatMessage,
  "Mutation.guestSendEnquiry(verifyToken:)": TEXT_LIMITS.verifyToken,
  "Mutation.forgotPassword(email:)": TEXT_LIMITS.email,
  "Mutation.forgotPassword(verifyToken:)": TEXT_LIMITS.verifyToken,
  "Mutation.resetPassword(newPassword:)": TEXT_LIMITS.password,
  "Mutation.resendEmailVerification(email:)": TEXT_LIMITS.email,
  "ReportConversationMessageInput.message": TEXT_LIMITS.chatMessage,
  "OrganisationUpdateInput.name": TEXT_LIMITS.organisationName,
  "OrganisationUpdateInput.abn": TEXT_LIMITS.abn,
  "OrganisationUpdateInput.generalEnquiryLabel": TEXT_LIMITS.enquiryLabel,
  "OrganisationUpdateInput.generalEnquiryWelcomeMessageContent": TEXT_LIMITS.welcomeMessage,
  "OrganisationUpdateInput.portalWelcomeMessageContent": TEXT_LIMITS.welcomeMessage,
  "Mutation.reportSubmissionClose(note:)": TEXT_LIMITS.note,
  "Mutation.reportSubmissionNoteCreate(note:)": TEXT_LIMITS.note,
  "Mutation.reportSubmissionNoteUpdate(note:)": TEXT_LIMITS.note,
  "Mutation.reportSubmissionForwardEmail(email:)": TEXT_LIMITS.email,
  "Mutation.reportSubmissionInviteUser(email:)": TEXT_LIMITS.email,
  "Mutation.reportSubmissionInternalReference(internalReference:)": TEXT_LIMITS.internalReference,
  "Mutation.tagCreate(name:)": TEXT_LIMITS.tagName,
  "Mutation.tagUpdate(newName:)": TEXT_LIMITS.tagName,
  "SavedReplyInput.title": TEXT_LIMITS.savedReplyTitle,
  "SavedReplyInput.body": TEXT_LIMITS.savedReplyBody,
  "ReportAnswerInput.answer": TEXT_LIMITS.answer,
  "Query.reportForms(search:)": TEXT_LIMITS.search,
  "Query.reportFormTemplates(search:)": TEXT_LIMITS.search,
  "ReportFormInput.name": FORM_LIMITS.formName,
  "ReportFormInput.welcomeMessageTitle": FORM_LIMITS.messageTitle,
  "ReportFormInput.finishMessageTitle": FORM_LIMITS.messageTitle,
  "ReportFormInput.welcomeMessageContent": FORM_LIMITS.messageHtml,
  "ReportFormInput.finishMessageContent": FORM_LIMITS.messageHtml,
  "ReportFormInput.uploadFilesMessage": FORM_LIMITS.messageHtml,
  "ReportFormInput.assignedToSupportMessage": FORM_LIMITS.messageHtml,
  "ReportFormInput.reportClosedMessage": FORM_LIMITS.messageHtml,
  "ReportFormInput.acknowledgementMessage": TEXT_LIMITS.acknowledgementMessage,
  "ReportFormInput.password": FORM_LIMITS.password,
  "Mutation.reportFormSecure(password:)": FORM_LIMITS.password,
  "ReportFormTemplateInput.name": FORM_LIMITS.formName,
  "ReportFormWidgetInput.title": FORM_LIMITS.widgetTitle,
  "ReportFormWidgetInput.tooltip": FORM_LIMITS.widgetText,
  "ReportFormWidgetInput.caption": FORM_LIMITS.widgetText,
  "ReportFormWidgetInput.answers": FORM_LIMITS.option,
  "ReportFormWidgetInput.pageName": FORM_LIMITS.pageName,
  "WidgetConditionRuleInput.conditionAnswer": FORM_LIMITS.option,
  "Mutation.reportFormNoteCreate(note:)": TEXT_LIMITS.note,
  "Mutation.reportFormNoteUpdate(note:)": TEXT_LIMITS.note,
  "Query.onboardInvites(search:)": TEXT_LIMITS.search,
  "OnboardInviteInput.email": TEXT_LIMITS.email,
  "OnboardInviteInput.firstName": TEXT_LIMITS.personName,
  "OnboardInviteInput.lastName": TEXT_LIMITS.personName,
  "UserCreateInput.email": TEXT_LIMITS.email,
  "UserCreateInput.firstName": TEXT_LIMITS.personName,
  "UserCreateInput.lastName": TEXT_LIMITS.personName,
  "UserCreateInput.username": TEXT_LIMITS.personName,
  "UserCreateInput.password": TEXT_LIMITS.password,
  "UserUpdateInput.email": TEXT_LIMITS.email,
  "UserUpdateInput.firstName": TEXT_LIMITS.personName,
  "UserUpdateInput.lastName": TEXT_LIMITS.personName,
  "UserUpdateInput.username": TEXT_LIMITS.personName,
  "UserUpdateInput.password": TEXT_LIMITS.password,
  "Query.resourceVideos(search:)": TEXT_LIMITS.search,
  "Query.resourceDocuments(search:)": TEXT_LIMITS.search,
  "ResourceVideoInput.title": RESOURCE_TEXT_LIMITS.title,
  "ResourceVideoInput.description": RESOURCE_TEXT_LIMITS.description,
  "ResourceVideoInput.videoSrc": RESOURCE_TEXT_LIMITS.videoUrl,
  "ResourceDocumentInput.title": RESOURCE_TEXT_LIMITS.title,
  "ResourceDocumentInput.description": RESOURCE_TEXT_LIMITS.description,
  // The largest a translated field may be (a message's HTML); the field's own bound is checked by name (translation-review/inputs.ts).
  "ReportFormTranslationUpdateInput.translatedText": FORM_LIMITS.messageHtml,
};

/** The bound of a text the table does not name: ids are short, and so is any other string. */
export function textLimitOf(coordinate: string, typeName: string): TextLimit {
  return TEXT_ARGUMENT_LIMITS[coordinate] ?? (typeName === "ID" ? TEXT_LIMITS.id : TEXT_LIMITS.short);
}

type Variables = Readonly<Record<string, unknown>>;

const problem = (message: string, field: string) =>
  new GraphQLError(message, { extensions: { code: "BAD_USER_INPUT", fields: [{ field, message }] } });

/** The first String or ID in a value (from the document or the variables) that holds NUL or is too long. */
class TextChecker {
  constructor(
    private readonly variables: Variables,
    private readonly defaults: ReadonlyMap<string, ValueNode>,
  ) {}

  text(value: unknown, coordinate: string, typeName: string, field: string): GraphQLError | null {
    if (typeof value !== "string") return null;
    if (value.includes(NUL_CHARACTER)) return problem(NUL_NOT_ALLOWED, field);
    const limit = textLimitOf(coordinate, typeName);
    return value.length > limit.max ? problem(limit.tooLong, field) : null;
  }

  /** A literal (or a variable) in the document, at the position of `type`. */
  node(node: ValueNode, type: GraphQLInputType, coordinate: string, field: string): GraphQLError | null {
    if (node.kind === Kind.VARIABLE) {
      const name = node.name.value;
      if (Object.hasOwn(this.variables, name)) return this.value(this.variables[name], type, coordinate, field);
      const fallback = this.defaults.get(name);
      return fallback ? this.node(fallback, type, coordinate, field) : null;
    }
    const nullable = getNullableType(type);
    if (isListType(nullable)) {
      const items = node.kind === Kind.LIST ? node.values : [node];
      for (const item of items) {
        const found = this.node(item, nullable.ofType, coordinate, field);
        if (found) return found;
      }
      return null;
    }
    if (isInputObjectType(nullable)) {
      if (node.kind !== Kind.OBJECT) return null;
      const fields = nullable.getFields();
      for (const entry of node.fields) {
        const definition = fields[entry.name.value];
        if (!definition) continue;
        const found = this.node(entry.value, definition.type, `${nullable.name}.${definition.name}`, definition.name);
        if (found) return found;
      }
      return null;
    }
    return node.kind === Kind.STRING ? this.text(node.value, coordinate, getNamedType(type).name, field) : null;
  }

  /** A variable's value as the client sent it (JSON, or files from a multipart request). */
  value(value: unknown, type: GraphQLInputType, coordinate: string, field: string): GraphQLError | null {
    const nullable = getNullableType(type);
    if (isListType(nullable)) {
      for (const item of Array.isArray(value) ? value : [value]) {
        const found = this.value(item, nullable.ofType, coordinate, field);
        if (found) return found;
      }
      return null;
    }
    if (isInputObjectType(nullable)) {
      if (!value || typeof value !== "object" || Array.isArray(value)) return null;
      for (const definition of Object.values(nullable.getFields())) {
        const found = this.value((value as Record<string, unknown>)[definition.name], definition.type, `${nullable.name}.${definition.name}`, definition.name);
        if (found) return found;
      }
      return null;
    }
    return this.text(value, coordinate, getNamedType(type).name, field);
  }
}

/**
 * The first problem with the text arguments of a document: a NUL character (Postgres refuses it),
 * or a text longer than its bound. Literals and variables are both read, so neither route is open.
 */
export function textProblem(schema: GraphQLSchema, document: DocumentNode, variables: Variables | null | undefined): GraphQLError | null {
  const plan = argumentPlan(schema, document);
  // Only arguments carry text in: a document without any (most reads) has nothing to check.
  if (plan.arguments.length === 0) return null;
  const checker = new TextChecker(variables ?? {}, plan.defaults);
  for (const argument of plan.arguments) {
    const found = checker.node(argument.value, argument.type, argument.coordinate, argument.name);
    if (found) return found;
  }
  return null;
}

interface ArgumentPlan {
  /** Every argument of the document with its input type and coordinate, in document order. */
  arguments: { value: ValueNode; type: GraphQLInputType; coordinate: string; name: string }[];
  defaults: ReadonlyMap<string, ValueNode>;
}

/**
 * Where a document's arguments sit in the schema, worked out once per parsed document (Yoga's parser
 * cache hands out the same object for the same text): a request then checks only its values, without
 * walking the document with the schema's type information again.
 */
const plans = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, ArgumentPlan>>();

function argumentPlan(schema: GraphQLSchema, document: DocumentNode): ArgumentPlan {
  let bySchema = plans.get(schema);
  if (!bySchema) plans.set(schema, (bySchema = new WeakMap()));
  const cached = bySchema.get(document);
  if (cached) return cached;
  const defaults = new Map<string, ValueNode>();
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const variable of definition.variableDefinitions ?? []) {
      if (variable.defaultValue) defaults.set(variable.variable.name.value, variable.defaultValue);
    }
  }
  const plan: ArgumentPlan = { arguments: [], defaults };
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Argument(node) {
        const argument = typeInfo.getArgument();
        if (!argument) return;
        const owner = typeInfo.getDirective() ? `@${typeInfo.getDirective()!.name}` : `${typeInfo.getParentType()?.name}.${typeInfo.getFieldDef()?.name}`;
        plan.arguments.push({ value: node.value, type: argument.type, coordinate: `${owner}(${argument.name}:)`, name: argument.name });
      },
    }),
  );
  bySchema.set(document, plan);
  return plan;
}

/**
 * Refuses an operation whose text arguments hold NUL or are too long, before any resolver runs:
 * the same bounds for every operation, over HTTP and over graphql-ws (which executes through
 * Yoga's envelop, so these hooks run there too).
 */
export function inputGuard(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const error = textProblem(args.schema, args.document, args.variableValues);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const error = textProblem(args.schema, args.document, args.variableValues);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
  };
}
