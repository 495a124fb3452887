import type { MouseEvent, ReactNode } from 'react';
import { navigate } from '../router';

type LinkProps = {
  to: string;
  className?: string;
  /** Marks the link as the current page for assistive technology and styling. */
  current?: boolean;
  children: ReactNode;
};

// A real <a href> so opening in a new tab and copying the address still work;
// plain left clicks stay inside the single-page console.
export function Link({ to, className, current, children }: LinkProps) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={to} className={className} aria-current={current ? 'page' : undefined} onClick={onClick}>
      {children}
    </a>
  );
}
