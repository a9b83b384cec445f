import { Link } from "@remix-run/react";

export interface TabItem {
  label: string;
  /** The tab's address: view state lives in the URL (`?tab=…`), so each tab is a link and works without JavaScript. */
  to: string;
  current: boolean;
}

/**
 * The one tab style of the kid pages (dashboard, store, app page): links in a `nav`, the open one marked
 * `aria-current="page"` (styled by `.tabs` / `.tab` in styles/dashboard.css).
 */
export function Tabs({ label, items, replace = false }: { label: string; items: TabItem[]; replace?: boolean }) {
  return (
    <nav className="tabs" aria-label={label}>
      {items.map((t) => (
        <Link key={t.label} to={t.to} className="tab" aria-current={t.current ? "page" : undefined} replace={replace}>
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
