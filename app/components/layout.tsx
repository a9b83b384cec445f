import { Form, Link, NavLink, useLocation, useNavigate } from "@remix-run/react";
import { useRef } from "react";
import { useDetailsMenu, useDialog } from "~/utils/dialog";
import { CloseIcon, MenuIcon } from "~/components/dashboard/icons";

export interface KidLink {
  id: string;
  name: string;
  serialNumber: string | null;
}

function withKid(path: string, kid: KidLink | null, keys: { profile?: string } = {}) {
  if (!kid) return path;
  const params = new URLSearchParams();
  params.set(keys.profile ?? "profileId", kid.id);
  if (kid.serialNumber) params.set("serialNumber", kid.serialNumber);
  return `${path}?${params}`;
}

/** Adds or removes `modal` in the current URL: popups are view state and live in the URL. */
export function useModalHref() {
  const location = useLocation();
  return (modal: string | null) => {
    const params = new URLSearchParams(location.search);
    if (modal) params.set("modal", modal);
    else params.delete("modal");
    const qs = params.toString();
    return `${location.pathname}${qs ? `?${qs}` : ""}`;
  };
}

/** The main menu; `requests` is the shown kid's pending requests, beside "Request" (issue 14). */
export function SideMenu({ kid, requests = 0 }: { kid: KidLink | null; requests?: number }) {
  const modalHref = useModalHref();
  const items: { label: string; to: string }[] = [
    { label: "Dashboard", to: withKid("/kids-device", kid) },
    { label: "Apps", to: withKid("/apps", kid) },
    { label: "Play Store", to: withKid("/play-store", kid) },
    { label: "Request", to: withKid("/requests", kid) },
    { label: "Browser Logs", to: withKid("/browser-logs", kid) },
    { label: "Web Filter", to: withKid("/web-filter", kid) },
    { label: "Device Logs", to: withKid("/device-logs", kid) },
    { label: "Settings", to: withKid("/global-settings", kid) },
    { label: "Schedules", to: withKid("/schedules", kid) },
    { label: "Reports", to: withKid("/reports", kid) },
    { label: "Webhooks", to: "/webhooks" },
    { label: "Alerts", to: "/alerts" },
    { label: "Alert Settings", to: "/alert-settings" },
    { label: "Payment History", to: "/payment-history" },
    { label: "Payment Methods", to: "/payment-methods" },
    { label: "Change Password", to: "/change-password" },
    { label: "API Tokens", to: "/api-tokens" },
  ];
  const menu = useRef<HTMLDetailsElement>(null);
  useDetailsMenu(menu);
  return (
    <details className="side-menu" ref={menu}>
      <summary className="icon-btn" aria-label="Open menu">
        <MenuIcon /> <span className="menu-label">Menu</span>
      </summary>
      <nav aria-label="Main menu" className="side-menu-panel">
        <ul>
          {items.map((item) => (
            <li key={item.label}>
              <NavLink to={item.to} prefetch="intent">
                {item.label}
              </NavLink>
              {item.label === "Request" && requests > 0 ? (
                <>
                  <span className="menu-count" data-testid="request-count" aria-hidden="true">
                    {requests}
                  </span>
                  <span className="sr-only">{`${requests} pending`}</span>
                </>
              ) : null}
            </li>
          ))}
          <li>
            <Link to={modalHref("logout")}>Logout</Link>
          </li>
          <li className="menu-help">
            <NavLink to="/contact">Need a help?</NavLink>
          </li>
        </ul>
      </nav>
    </details>
  );
}

/**
 * A popup: `?modal=…` in the URL, so it works without JavaScript; with it, a real dialog (focus in, Tab kept
 * inside, Escape and a click on the backdrop close it, focus back to its opener; app/utils/dialog.ts).
 */
export function Modal({
  title,
  closeHref,
  children,
  labelId = "modal-title",
}: {
  title: string;
  closeHref: string;
  children: React.ReactNode;
  labelId?: string;
}) {
  const ref = useRef<HTMLElement>(null);
  const navigate = useNavigate();
  const close = () => navigate(closeHref, { replace: true, preventScrollReset: true });
  useDialog(ref, close);
  return (
    <div
      className="modal-backdrop"
      onPointerDown={(e) => {
        if (e.target === e.currentTarget) close();
      }}
    >
      <section className="modal" role="dialog" aria-modal="true" aria-labelledby={labelId} ref={ref} tabIndex={-1}>
        <header className="modal-header">
          <h2 id={labelId}>{title}</h2>
          <Link to={closeHref} className="icon-btn" aria-label="Close" preventScrollReset replace>
            <CloseIcon />
          </Link>
        </header>
        {children}
      </section>
    </div>
  );
}

export function LogoutConfirm({ closeHref }: { closeHref: string }) {
  return (
    <Modal title="Log out" closeHref={closeHref}>
      <p>Are you sure you want to log out?</p>
      <div className="modal-actions">
        <Link to={closeHref} className="btn btn-outline" replace>
          Cancel
        </Link>
        <Form method="post" action="/logout">
          <button type="submit" className="btn btn-danger">
            Log out
          </button>
        </Form>
      </div>
    </Modal>
  );
}

export function Footer() {
  return (
    <footer className="site-footer">
      <nav aria-label="Help and legal">
        <Link to="/contact">Help</Link>
        <Link to="/legal/privacy">Privacy Policy</Link>
        <Link to="/legal/terms">Terms of Service</Link>
      </nav>
      <p>© {new Date().getFullYear()} Kids Portal · London, UK</p>
    </footer>
  );
}
