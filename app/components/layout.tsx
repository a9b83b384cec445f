import { Form, Link, NavLink, useLocation } from "@remix-run/react";

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

export function SideMenu({ kid }: { kid: KidLink | null }) {
  const modalHref = useModalHref();
  const items: { label: string; to: string }[] = [
    { label: "Dashboard", to: withKid("/kids-device", kid) },
    { label: "Apps", to: withKid("/play-store", kid) },
    { label: "Request", to: withKid("/requests", kid) },
    { label: "Browser Logs", to: withKid("/browser-logs", kid) },
    { label: "Settings", to: withKid("/global-settings", kid) },
    { label: "Reports", to: withKid("/reports", kid) },
    { label: "Payment History", to: "/payment-history" },
    { label: "Payment Methods", to: "/payment-methods" },
    { label: "Change Password", to: "/change-password" },
  ];
  return (
    <details className="side-menu">
      <summary className="icon-btn" aria-label="Open menu">
        <span aria-hidden="true">☰</span> <span className="menu-label">Menu</span>
      </summary>
      <nav aria-label="Main menu" className="side-menu-panel">
        <ul>
          {items.map((item) => (
            <li key={item.label}>
              <NavLink to={item.to} prefetch="intent">
                {item.label}
              </NavLink>
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

export function Modal({ title, closeHref, children, labelId = "modal-title" }: { title: string; closeHref: string; children: React.ReactNode; labelId?: string }) {
  return (
    <div className="modal-backdrop">
      <section className="modal" role="dialog" aria-modal="true" aria-labelledby={labelId}>
        <header className="modal-header">
          <h2 id={labelId}>{title}</h2>
          <Link to={closeHref} className="icon-btn" aria-label="Close" preventScrollReset replace>
            ×
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
