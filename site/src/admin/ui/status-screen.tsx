import type { ReactNode } from 'react';

type StatusScreenProps = {
  children: ReactNode;
};

// Whole-page placeholder while the session is checked, or when it cannot be.
export function StatusScreen({ children }: StatusScreenProps) {
  return (
    <main className="container container--narrow">
      <div className="card stack" role="status">
        {children}
      </div>
    </main>
  );
}
