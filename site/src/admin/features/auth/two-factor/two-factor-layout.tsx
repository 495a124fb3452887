import { useEffect, useRef, type ReactNode } from 'react';
import { useDocumentTitle } from '../../../ui/document-title';
import { navigate } from '../../../router';
import { signOut } from '../session-store';
import './two-factor.css';

type TwoFactorLayoutProps = {
  title: string;
  /** The setup screen's back arrow. */
  onBack?: (() => void) | undefined;
  children: ReactNode;
};

// The frame of the screens before the console: a heading that takes focus, and a way out.
export function TwoFactorLayout({ title, onBack, children }: TwoFactorLayoutProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useDocumentTitle([title]);
  useEffect(() => headingRef.current?.focus(), [title]);
  return (
    <main className="container container--narrow admin-login-page">
      <div className="card stack admin-login two-factor">
        <div className="two-factor__header">
          {onBack && (
            <button type="button" className="two-factor__back" aria-label="Back" onClick={onBack}>
              <span aria-hidden="true">←</span>
            </button>
          )}
          <h1 ref={headingRef} tabIndex={-1}>
            {title}
          </h1>
        </div>
        {children}
        <button type="button" className="button button--secondary button--block" onClick={() => void signOut(() => navigate('/admin', { replace: true }))}>
          Sign Out
        </button>
      </div>
    </main>
  );
}
