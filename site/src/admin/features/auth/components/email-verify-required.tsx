import { useEffect, useRef } from 'react';

type EmailVerifyRequiredProps = {
  onReturn: () => void;
};

export function EmailVerifyRequired({ onReturn }: EmailVerifyRequiredProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);

  // The form disappears under the user's focus; move it to the new message.
  useEffect(() => headingRef.current?.focus(), []);

  return (
    <div className="card stack admin-login">
      <h1 ref={headingRef} tabIndex={-1}>
        Email Verification Required
      </h1>
      <p>Please check your email to complete your login.</p>
      <button type="button" className="button button--block" onClick={onReturn}>
        Return back to Login
      </button>
    </div>
  );
}
