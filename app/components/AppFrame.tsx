import { Link, useLocation } from "@remix-run/react";
import { Footer, LogoutConfirm, SideMenu, useModalHref, type KidLink } from "~/components/layout";
import { BrandMark } from "~/components/dashboard/icons";
import { AlertBell } from "~/components/alerts/AlertBell";

export interface AppFrameData {
  parent: { name: string; email: string };
  kids: KidLink[];
  requestCounts: Record<string, number>;
  /** Unread alerts: the header's bell (issue 55). */
  unreadAlerts?: number;
}

/**
 * The signed-in frame (app/components/app-frame.server.ts reads its data): header with menu, brand and the
 * parent's name, the page, footer, logout confirmation. The guarded area (_app.tsx) and a public page a signed-in
 * parent opens (/contact) both show it, so the header never goes away while signed in.
 */
export function AppFrame({ parent, kids, requestCounts, unreadAlerts = 0, children }: AppFrameData & { children: React.ReactNode }) {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const profileId = params.get("profileId") ?? params.get("profile_id");
  const kid = kids.find((k) => k.id === profileId) ?? kids[0] ?? null;
  const modalHref = useModalHref();
  return (
    <div className="app-shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="site-header">
        <SideMenu kid={kid} requests={kid ? (requestCounts[kid.id] ?? 0) : 0} />
        <Link to="/kids-device" className="brand" aria-label="Kids Portal dashboard">
          <BrandMark /> Kids Portal
        </Link>
        <div id="kid-switcher-slot" className="header-right">
          <AlertBell unread={unreadAlerts} />
          <Link to="/parent-profile" className="parent-name" title={`${parent.email} · Parent Profile`}>
            {parent.name}
          </Link>
        </div>
      </header>
      <main id="main" className="content">
        {children}
      </main>
      <Footer />
      {params.get("modal") === "logout" ? <LogoutConfirm closeHref={modalHref(null)} /> : null}
    </div>
  );
}
