import { integer, snakeCase, text, uniqueIndex } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { archiving, createdAt, id, updatedAt } from "./columns.ts";

/** What a new organisation signs up for: its seats and its price (docs/decisions/037). */
export const productPlans = snakeCase.table("product_plans", {
  id: id(),
  name: text().notNull(),
  seats: integer().notNull(),
  /** Per sign-up, in cents; 0 is a free plan. */
  priceCents: integer().notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  ...archiving(),
});

/** A discount code given at the end of sign-up: an amount off or a percentage off, never both. */
export const coupons = snakeCase.table(
  "coupons",
  {
    id: id(),
    code: text().notNull(),
    name: text().notNull(),
    amountOffCents: integer(),
    percentOff: integer(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ...archiving(),
  },
  (t) => [uniqueIndex("coupons_code_lower_idx").on(sql`lower(${t.code})`)],
);
