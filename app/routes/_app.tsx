import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { Footer, LogoutConfirm, SideMenu, useModalHref } from "~/components/layout";
import { listKidsForParent } from "../../db/queries/kids";
import { perRequest } from "~/utils/request-memo.server";
import { requireParent } from "~/utils/auth.server";
import { KIDS_PAGE_SIZE } from "~/utils/rules";

/** The guarded area's frame: header with menu and kid switcher place, content, footer, logout confirmation. */
export async function loader(args: LoaderFunctionArgs) {
  const { parent } = await requireParent(args);
  const kids = await perRequest(args, "kids", () => listKidsForParent(args.context.services.db, parent, { pageSize: KIDS_PAGE_SIZE }));
  return json({
    parent: { name: parent.name, email: parent.email, role: parent.role, useDefaultPassword: Boolean(parent.use_default_password) },
    kids,
  });
}

export default function AppLayout() {
  const { parent, kids } = useLoaderData<typeof loader>();
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
        <SideMenu kid={kid} />
        <Link to="/kids-device" className="brand" aria-label="Kids Portal dashboard">
          <span className="brand-mark" aria-hidden="true">◉</span> Kids Portal
        </Link>
        <div id="kid-switcher-slot" className="header-right">
          <span className="parent-name" title={parent.email}>
            {parent.name}
          </span>
        </div>
      </header>
      <main id="main" className="content">
        <Outlet />
      </main>
      <Footer />
      {params.get("modal") === "logout" ? <LogoutConfirm closeHref={modalHref(null)} /> : null}
    </div>
  );
}
