import { graphqlRequest } from '../../../lib/graphql';
import { FALLBACK_ERROR_MESSAGE, postJson } from '../../../lib/http';

// The sign-up calls (spec §7; decision 036), each reduced to what its screen needs. They run signed
// out, so they use plain requests rather than the signed-in console's client.

export type Outcome<T> = { ok: true; data: T } | { ok: false; message: string; fields?: FieldProblem[] };
export type FieldProblem = { field: string; message: string };

export type Invite = { email: string; firstName: string; lastName: string; roleName: string; organisationName: string; enableSSO: boolean };
export type Plan = { id: string; name: string; seats: number; price: number; available: boolean };
export type Prospect = {
  id: string;
  type: 'Organisation' | 'Member';
  firstName: string;
  lastName: string;
  email: string;
  organisationName: string | null;
  isSSO: boolean;
  paymentsEnabled: boolean;
  productPlan: Plan | null;
};
export type Coupon = { id: string; name: string; amountOffDollars: number | null; amountOffCents: number | null; percentOff: number | null };

async function query<T>(document: string, variables: Record<string, unknown>, key: string): Promise<Outcome<T>> {
  const result = await graphqlRequest(document, variables);
  if (!result.ok) return { ok: false, message: result.message };
  return { ok: true, data: (result.data as Record<string, T>)[key] as T };
}

export const loadInvite = (token: string) =>
  query<Invite>('query OnboardingInvite($token: String!) { onboardingInviteGet(token: $token) { email firstName lastName roleName organisationName enableSSO } }', { token }, 'onboardingInviteGet');

export const loadPlan = (id: string) => query<Plan | null>('query ProductPlan($id: ID!) { productPlanGet(id: $id) { id name seats price available } }', { id }, 'productPlanGet');

export const loadProspect = (token: string) =>
  query<Prospect>(
    'query Onboarding($token: String!) { onboarding(token: $token) { id type firstName lastName email organisationName isSSO paymentsEnabled productPlan { id name seats price available } } }',
    { token },
    'onboarding',
  );

export const loadCoupon = (code: string) => query<Coupon | null>('query Coupon($code: String!) { couponGet(code: $code) { id name amountOffDollars amountOffCents percentOff } }', { code }, 'couponGet');

export const checkCompleted = (prospectID: string) =>
  query<{ isCompleted: boolean }>('query OnboardingCheck($id: ID!) { onboardingCheck(prospectID: $id) { isCompleted } }', { id: prospectID }, 'onboardingCheck');

async function post<T>(url: string, body: Record<string, unknown>): Promise<Outcome<T>> {
  const result = await postJson(url, body);
  if (result.ok) return { ok: true, data: result.data as T };
  return { ok: false, message: result.message || FALLBACK_ERROR_MESSAGE };
}

export type StartAnswer = { prospectID: string; title: string; message: string; email: string };

/** verifyToken starts empty; when the server asks for proof of work, the request is solved and repeated. */
export const startOnboarding = (body: Record<string, unknown>) => post<StartAnswer>('/api/auth/onboard_start', { ...body, verifyToken: '' });

export const finishOnboarding = (body: { prospectID: string; token: string; cardToken: string; couponCode: string; password?: string }) => post<unknown>('/api/auth/onboard_finish', body);

/** '$12.50', or '$0' for a free plan. */
export function formatPrice(dollars: number): string {
  return dollars === 0 ? 'Free' : `$${dollars.toFixed(2)}`;
}

export function couponLabel(coupon: Coupon): string {
  if (coupon.percentOff !== null) return `${coupon.name}: ${coupon.percentOff}% off`;
  return `${coupon.name}: $${coupon.amountOffDollars ?? 0}.${String(coupon.amountOffCents ?? 0).padStart(2, '0')} off`;
}

export function priceAfter(price: number, coupon: Coupon | null): number {
  if (!coupon) return price;
  const off = coupon.percentOff !== null ? (price * coupon.percentOff) / 100 : (coupon.amountOffDollars ?? 0) + (coupon.amountOffCents ?? 0) / 100;
  return Math.max(0, Math.round((price - off) * 100) / 100);
}
