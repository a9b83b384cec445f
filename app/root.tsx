import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useLoaderData,
  useLocation,
  useMatches,
  useRouteError,
} from "@remix-run/react";
import { Toaster } from "./components/toaster";
import styles from "./styles/app.css?url";
import { readPageToast } from "./utils/toast.server";
import { useNonce } from "./utils/nonce";
import { useFocusHeadingOnNavigation } from "./utils/dialog";
import { noJsRefreshUrl } from "./rules/status";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "Kids Portal" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { toast, setCookie } = await readPageToast(request);
  return json({ toast }, setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined);
}

/**
 * A route whose loader answers `noJsRefreshSeconds` (the dashboard, while a command waits for the phone) gets a
 * meta refresh that only a browser without JavaScript obeys; with JavaScript the live channel refreshes it.
 * `noJsRefreshAt` (the id of the section that waits) brings every refresh back at that section; `noJsRefreshTo`
 * (a same-site path) goes there instead of reloading the page (the app page's delayed rating popup).
 */
function useNoJsRefresh(): { seconds: number; at: string | null; to: string | null } | null {
  const matches = useMatches();
  for (const m of matches) {
    const data = m.data as { noJsRefreshSeconds?: unknown; noJsRefreshAt?: unknown; noJsRefreshTo?: unknown } | undefined;
    const s = data?.noJsRefreshSeconds;
    if (typeof s === "number" && s > 0)
      return {
        seconds: s,
        at: typeof data?.noJsRefreshAt === "string" ? data.noJsRefreshAt : null,
        to: typeof data?.noJsRefreshTo === "string" && /^\/(?![/\\])/.test(data.noJsRefreshTo) ? data.noJsRefreshTo : null,
      };
  }
  return null;
}

export function Document({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const refresh = useNoJsRefresh();
  // The server never sees the fragment: the section comes from the loader (see noJsRefreshUrl).
  const { pathname, search } = useLocation();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f766e" />
        <Meta />
        <Links />
        {refresh ? (
          <noscript>
            <meta httpEquiv="refresh" content={`${refresh.seconds}; url=${refresh.to ?? noJsRefreshUrl(pathname, search, refresh.at)}`} />
          </noscript>
        ) : null}
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { toast } = useLoaderData<typeof loader>();
  useFocusHeadingOnNavigation();
  return (
    <Document>
      <Outlet />
      <Toaster toast={toast} />
    </Document>
  );
}

/** The error page's title and sentence: 404 and 503 from the spec and the outage page, 403 says there is no access. */
function errorText(error: unknown): { title: string; text: string } {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (status === 404) return { title: "Oops! You're lost.", text: "The page you are looking for was not found." };
  if (status === 403)
    return {
      title: "You don't have access to this page",
      text: "Your account can't open this page: it is only for the people who run Kids Portal. Go back to Home, or contact us if you think you should have access.",
    };
  const message = isRouteErrorResponse(error) ? String(error.data || error.statusText) : "Something went wrong. Please try again.";
  return { title: status === 503 ? "Briefly unavailable" : "Something went wrong", text: message };
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { title, text } = errorText(error);
  const forbidden = isRouteErrorResponse(error) && error.status === 403;
  return (
    <Document>
      <main className="center-page">
        <div className="card narrow">
          <h1>{title}</h1>
          <p>{text}</p>
          <div className="button-row">
            <a className="btn" href="/kids-device">
              Back to Home
            </a>
            {forbidden ? (
              <a className="btn btn-outline" href="/contact">
                Contact us
              </a>
            ) : null}
          </div>
        </div>
      </main>
    </Document>
  );
}
