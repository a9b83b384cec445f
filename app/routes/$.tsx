import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";

export const meta: MetaFunction = () => [{ title: "Page not found · Kids Portal" }];

export async function loader(_args: LoaderFunctionArgs) {
  throw new Response("Not Found", { status: 404 });
}

export function NotFound() {
  return (
    <main className="center-page">
      <div className="card narrow center">
        {/* A drawn compass, not an emoji: every platform can draw it. */}
        <svg className="big-icon" viewBox="0 0 48 48" width="56" height="56" aria-hidden="true" focusable="false">
          <circle cx="24" cy="24" r="21" fill="none" stroke="currentColor" strokeWidth="3" />
          <path d="M31 17 26.5 26.5 17 31 21.5 21.5Z" fill="currentColor" />
        </svg>
        <h1>Oops! You're lost.</h1>
        <p>The page you are looking for was not found.</p>
        <Link className="btn btn-primary" to="/kids-device">
          Back to Home
        </Link>
      </div>
    </main>
  );
}

export function ErrorBoundary() {
  return <NotFound />;
}

export default NotFound;
