import type { LinksFunction } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { BrandMark } from "~/components/dashboard/icons";
import authStyles from "../styles/auth.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: authStyles }];

/** Public pages: a centred card with the product's name, no menu. */
export default function AuthLayout() {
  return (
    <main className="auth-page">
      <div className="auth-card">
        <a href="/login" className="brand brand-large" aria-label="Kids Portal home">
          <BrandMark /> Kids Portal
        </a>
        <Outlet />
      </div>
      <footer className="auth-footer">
        <a href="/contact">Need a help?</a> · <a href="/legal/privacy">Privacy</a> · <a href="/legal/terms">Terms</a>
      </footer>
    </main>
  );
}
