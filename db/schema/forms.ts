import { type AnyPgColumn, boolean, check, index, integer, jsonb, primaryKey, snakeCase, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import type { ConditionMatchType } from "../../api/shared/enums.ts";
import { archiving, createdAt, id, updatedAt } from "./columns.ts";
import { formStatus, formType, widgetType } from "./enums.ts";
import { organisations, users } from "./identity.ts";

/** A widget's visibility condition, kept with the widget it guards. */
export interface StoredCondition {
  id: string;
  matchType: ConditionMatchType;
  rules: { id: string; conditionWidgetID: string; conditionAnswer: string }[];
}

/** Hex colours keyed by the spec's theme field names; unset keys fall back to the default palette. */
export type StoredTheme = Record<string, string>;

export const reportFormTemplates = snakeCase.table(
  "report_form_templates",
  {
    id: id(),
    name: text().notNull(),
    currentBuildId: uuid().references((): AnyPgColumn => reportFormBuilds.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ...archiving(),
  },
  (t) => [index().on(t.archived, t.name)],
);

export const reportForms = snakeCase.table(
  "report_forms",
  {
    id: id(),
    organisationId: uuid()
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    name: text().notNull(),
    type: formType().notNull().default("Custom"),
    status: formStatus().notNull().default("Draft"),
    locked: boolean().notNull().default(false),
    welcomeMessageTitle: text().notNull().default("Welcome"),
    welcomeMessageContent: text().notNull().default(""),
    finishMessageTitle: text().notNull().default("Report Submitted"),
    finishMessageContent: text().notNull().default(""),
    assignedToSupportMessage: text().notNull().default(""),
    showImportantInfoMessage: boolean().notNull().default(false),
    reportClosedMessage: text().notNull().default(""),
    uploadFilesMessage: text().notNull().default(""),
    /**
     * Plain text sent into the reporter's chat as a System message when a report is completed; empty
     * sends nothing (decision 051). Forms made before it existed stay silent until an admin writes one.
     */
    acknowledgementMessage: text().notNull().default(""),
    /** Argon2id hash of the form password; null when the form is not secured. */
    pinHash: text(),
    showLogo: boolean().notNull().default(true),
    hasChat: boolean().notNull().default(true),
    allowFileUploads: boolean().notNull().default(false),
    allowChatFileUploads: boolean().notNull().default(false),
    allowedFileTypes: text().array().notNull().default(sql`'{}'::text[]`),
    theme: jsonb().$type<StoredTheme>().notNull().default({}),
    currentBuildId: uuid().references((): AnyPgColumn => reportFormBuilds.id, { onDelete: "set null" }),
    deployedBuildId: uuid().references((): AnyPgColumn => reportFormBuilds.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ...archiving(),
  },
  (t) => [index().on(t.organisationId, t.archived, t.name), index().on(t.organisationId, t.type)],
);

/** An immutable revision of a form's or a template's widgets. */
export const reportFormBuilds = snakeCase.table(
  "report_form_builds",
  {
    id: id(),
    formId: uuid().references(() => reportForms.id, { onDelete: "cascade" }),
    templateId: uuid().references(() => reportFormTemplates.id, { onDelete: "cascade" }),
    revision: integer().notNull(),
    authorUserId: uuid().references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex().on(t.formId, t.revision),
    uniqueIndex().on(t.templateId, t.revision),
    check("report_form_builds_one_owner", sql`(${t.formId} is null) <> (${t.templateId} is null)`),
  ],
);

/** Widgets of one build, in order. `id` is stable across builds so answers keep their meaning. */
export const reportFormWidgets = snakeCase.table(
  "report_form_widgets",
  {
    buildId: uuid()
      .notNull()
      .references(() => reportFormBuilds.id, { onDelete: "cascade" }),
    id: text().notNull(),
    position: integer().notNull(),
    type: widgetType().notNull(),
    title: text().notNull().default(""),
    required: boolean().notNull().default(false),
    tooltip: text().notNull().default(""),
    caption: text().notNull().default(""),
    answers: text().array().notNull().default(sql`'{}'::text[]`),
    /** Only Section widgets carry a page name. */
    pageName: text(),
    condition: jsonb().$type<StoredCondition>(),
  },
  (t) => [primaryKey({ columns: [t.buildId, t.id] }), uniqueIndex().on(t.buildId, t.position)],
);

export const reportFormNotes = snakeCase.table(
  "report_form_notes",
  {
    id: id(),
    formId: uuid()
      .notNull()
      .references(() => reportForms.id, { onDelete: "cascade" }),
    organisationId: uuid()
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    authorUserId: uuid().references(() => users.id, { onDelete: "set null" }),
    note: text().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ...archiving(),
  },
  (t) => [index().on(t.formId, t.archived, t.createdAt)],
);
