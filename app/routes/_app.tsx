import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { Footer, LogoutConfirm, SideMenu, useModalHref } from "~/components/layout";
import { listKidsForParent } from "#db/queries/kids";
import { pendingRequestCounts } from "#db/queries/requests";
import { perRequest } from "~/utils/request-memo.server";
import { requireParent } from "~/utils/auth.server";
import { KIDS_PAGE_SIZE } from "~/rules/kids";

/** The guarded area's frame: header with menu and kid switcher place, content, footer, logout confirmation. */
export async function loader(args: LoaderFunctionArgs) {
  const { parent } = await requireParent(args);
  const kids = await perRequest(args, "kids", () => listKidsForParent(args.context.services.db, parent, { pageSize: KIDS_PAGE_SIZE }));
  // The side menu's Request count (issue 14), per kid the parent may see.
  const requestCounts = await pendingRequestCounts(
    args.context.services.db,
    kids.map((k) => k.id),
  );
  return json({
    requestCounts,
    parent: { name: parent.name, email: parent.email, role: parent.role, useDefaultPassword: Boolean(parent.use_default_password) },
    kids,
  });
}

export default function AppLayout() {
  const { parent, kids, requestCounts } = useLoaderData<typeof loader>();
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
          <span className="brand-mark" aria-hidden="true">
            ◉
          </span>{" "}
          Kids Portal
        </Link>
        <div id="kid-switcher-slot" className="header-right">
          <Link to="/parent-profile" className="parent-name" title={`${parent.email} · Parent Profile`}>
            {parent.name}
          </Link>
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
