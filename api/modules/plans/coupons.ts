import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { coupons } from "../../../db/schema/index.ts";
import { badInput } from "../../lib/errors.ts";
import { PAYMENT_NOT_AVAILABLE } from "../../shared/messages.ts";

/** Coupons (spec Coupon: id, name, amountOffDollars, amountOffCents, percentOff; decision 037). */

export const COUPON_INVALID = "This coupon code is not valid.";

export interface CouponView {
  id: string;
  name: string;
  /** The whole dollars of the amount off, and the cents after them: $12.50 is 12 and 50. */
  amountOffDollars: number | null;
  amountOffCents: number | null;
  percentOff: number | null;
}

type CouponRow = typeof coupons.$inferSelect;

export function couponView(row: CouponRow): CouponView {
  const amount = row.amountOffCents;
  return {
    id: row.id,
    name: row.name,
    amountOffDollars: amount === null ? null : Math.floor(amount / 100),
    amountOffCents: amount === null ? null : amount % 100,
    percentOff: row.percentOff,
  };
}

/** A live coupon by its code (case does not matter), or null. */
export async function findCoupon(db: Database, code: string): Promise<CouponRow | null> {
  const trimmed = code.trim();
  if (!trimmed || trimmed.length > 200) return null;
  const [row] = await db.select().from(coupons).where(and(sql`lower(${coupons.code}) = ${trimmed.toLowerCase()}`, eq(coupons.archived, false))).limit(1);
  return row ?? null;
}

/** What is left to pay, in cents, never below nothing. */
export function priceAfterCoupon(priceCents: number, coupon: CouponRow | null): number {
  if (!coupon) return priceCents;
  const off = coupon.amountOffCents ?? Math.round((priceCents * (coupon.percentOff ?? 0)) / 100);
  return Math.max(0, priceCents - off);
}

/**
 * Payment collection sits behind a provider setting that is off: no provider is wired in, so only
 * what costs nothing after its coupon can be signed up for. A provider would take `cardToken` here.
 */
export const PAYMENT_PROVIDER: null = null;

export function requirePayable(amountCents: number, _cardToken: string): void {
  if (amountCents > 0 && PAYMENT_PROVIDER === null) throw badInput(PAYMENT_NOT_AVAILABLE, [{ field: "productPlanID", message: PAYMENT_NOT_AVAILABLE }]);
}
