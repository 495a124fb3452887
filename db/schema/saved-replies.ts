import { index, snakeCase, text, uuid } from "drizzle-orm/pg-core";
import { archiving, createdAt, id, updatedAt } from "./columns.ts";
import { organisations } from "./identity.ts";

/**
 * An organisation's saved replies: staff-written texts staff insert into a report's chat (decision
 * 051). Not reporters' data, so stored in plain like other organisation texts.
 */
export const savedReplies = snakeCase.table(
  "saved_replies",
  {
    id: id(),
    organisationId: uuid()
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    title: text().notNull(),
    body: text().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ...archiving(),
  },
  (t) => [index().on(t.organisationId, t.archived)],
);
