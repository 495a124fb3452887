import { useState } from 'react';
import { TextField } from '../../../lib/text-field';
import { couponLabel, formatPrice, loadCoupon, priceAfter, type Coupon, type Plan } from './onboarding-api';

/** Said wherever a priced plan is shown while the server collects no payments (decision 037). */
export const PAYMENTS_OFF_NOTE = 'Payments are not taken here yet: only free plans (or plans a coupon makes free) can be signed up for.';
const COUPON_INVALID = 'This coupon code is not valid.';

/** The plan being signed up for, with the coupon field; `onCoupon` hands the applied code to the finish call. */
export function PlanSummary({ plan, paymentsEnabled, onCoupon }: { plan: Plan | null; paymentsEnabled: boolean; onCoupon: (code: string) => void }) {
  const [code, setCode] = useState('');
  const [coupon, setCoupon] = useState<Coupon | null>(null);
  const [error, setError] = useState<string>();
  const [checking, setChecking] = useState(false);
  const price = plan?.price ?? 0;
  const due = priceAfter(price, coupon);

  const apply = async () => {
    if (checking || !code.trim()) return;
    setChecking(true);
    const outcome = await loadCoupon(code.trim());
    setChecking(false);
    const found = outcome.ok ? outcome.data : null;
    setCoupon(found);
    setError(found ? undefined : outcome.ok ? COUPON_INVALID : outcome.message);
    onCoupon(found ? code.trim() : '');
  };

  return (
    <div className="stack">
      <p>
        Plan: <strong>{plan ? `${plan.name}, ${plan.seats} seats` : 'Standard, 10 seats'}</strong>. Price: <strong>{formatPrice(due)}</strong>
        {coupon && ` (${couponLabel(coupon)})`}
      </p>
      {price > 0 && (
        <>
          <TextField id="couponCode" label="Coupon Code" value={code} onChange={setCode} error={error} />
          <button type="button" className="button button--secondary" onClick={() => void apply()} disabled={checking}>
            {checking ? 'Checking…' : 'Apply coupon'}
          </button>
          {!paymentsEnabled && due > 0 && <p className="muted">{PAYMENTS_OFF_NOTE}</p>}
        </>
      )}
    </div>
  );
}
