import { useEffect, type KeyboardEvent, type MouseEvent } from 'react';
import { navigate } from '../../lib/history-router';

export type TabKey = 'dashboard' | 'uploads' | 'messages' | 'settings';
export type Tab = { key: TabKey; label: string; badge?: { count: number; label: string } | undefined };

export const PANEL_ID = 'report-area-panel';
export const tabId = (key: TabKey) => `report-area-tab-${key}`;

const KEY_STEPS: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (index, count) => (index + 1) % count,
  ArrowLeft: (index, count) => (index - 1 + count) % count,
  Home: () => 0,
  End: (_index, count) => count - 1,
};

type AreaTabsProps = { tabs: readonly Tab[]; current: TabKey };

/**
 * The follow-up area's sections as an ARIA tablist. Each tab is also a link to its own path, so
 * a new browser tab or a reload lands on the same section. Arrow keys, Home and End move between
 * tabs and open them (the panels appear at once, nothing is fetched first). On a narrow screen the
 * row scrolls sideways inside itself instead of wrapping, with a fade on the side that has more.
 */
export function AreaTabs({ tabs, current }: AreaTabsProps) {
  // The open tab must be in view inside the scrolling row, also after a reload on a narrow screen.
  useEffect(() => {
    document.getElementById(tabId(current))?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [current]);

  const open = (event: MouseEvent<HTMLAnchorElement>, key: TabKey) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(`/report/${key}`);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = KEY_STEPS[event.key];
    if (!step) return;
    event.preventDefault();
    const index = tabs.findIndex((tab) => tab.key === current);
    const next = tabs[step(index, tabs.length)];
    if (!next) return;
    navigate(`/report/${next.key}`);
    document.getElementById(tabId(next.key))?.focus();
  };

  return (
    <div className="area-tabs">
      <div className="area-tabs__list" role="tablist" aria-label="Report sections" onKeyDown={onKeyDown}>
        {tabs.map((tab) => {
          const selected = tab.key === current;
          return (
            <a
              key={tab.key}
              id={tabId(tab.key)}
              href={`/report/${tab.key}`}
              role="tab"
              className="area-tabs__tab"
              aria-selected={selected}
              aria-controls={selected ? PANEL_ID : undefined}
              tabIndex={selected ? 0 : -1}
              onClick={(event) => open(event, tab.key)}
            >
              {tab.label}
              {tab.badge && (
                <span className="area-tabs__badge">
                  {tab.badge.count}
                  <span className="visually-hidden"> {tab.badge.label}</span>
                </span>
              )}
            </a>
          );
        })}
      </div>
    </div>
  );
}
