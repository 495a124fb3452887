import type { MouseEvent, ReactNode } from 'react';
import { navigate } from '../router';

type LinkProps = {
  to: string;
  className?: string;
  children: ReactNode;
};

// A real <a href> so opening in a new tab and copying the address still work;
// plain left clicks stay inside the single-page console.
export function Link({ to, className, children }: LinkProps) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={to} className={className} onClick={onClick}>
      {children}
    </a>
  );
}
