import { boolean, index, primaryKey, snakeCase, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns.ts";
import { reportForms } from "./forms.ts";
import { users } from "./identity.ts";

/**
 * Machine translations of organisation-authored text, one row per text, format, language pair and
 * provider: a form is translated once per language, not per visit. Only organisation text is kept
 * here, never anything a reporter typed (docs/decisions/043-form-translation.md).
 */
export const translationCache = snakeCase.table(
  "translation_cache",
  {
    provider: text().notNull(),
    sourceLanguage: text().notNull(),
    targetLanguage: text().notNull(),
    /** 'HTML' or 'Text'. */
    format: text().notNull(),
    /** sha256 of the original text, hex: the key stays small whatever the text's length. */
    sourceHash: text().notNull(),
    translatedText: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.sourceLanguage, t.targetLanguage, t.format, t.sourceHash] })],
);

/**
 * Staff review of a form's translations. An override belongs to one original text (its hash), so it
 * applies to every build that still has that text and to none that changed it: a build whose text
 * changed shows the earlier override as 'changed since review'. A null translatedText means the
 * machine text was reviewed and kept.
 */
export const formTranslationOverrides = snakeCase.table(
  "form_translation_overrides",
  {
    formId: uuid()
      .notNull()
      .references(() => reportForms.id, { onDelete: "cascade" }),
    targetLanguage: text().notNull(),
    /** The item's name (api/shared/translation.ts), such as widget.{id}.title. */
    name: text().notNull(),
    sourceHash: text().notNull(),
    /** The original text the override was written against, shown when the text has changed since. */
    sourceText: text().notNull(),
    translatedText: text(),
    reviewed: boolean().notNull().default(false),
    updatedByUserId: uuid().references(() => users.id, { onDelete: "set null" }),
    updatedAt: updatedAt(),
    reviewedAt: timestamp({ withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.formId, t.targetLanguage, t.name, t.sourceHash] }), index().on(t.formId, t.targetLanguage)],
);
