import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { CompassIcon } from "~/components/dashboard/icons";

export const meta: MetaFunction = () => [{ title: "Page not found · Kids Portal" }];

export async function loader(_args: LoaderFunctionArgs) {
  throw new Response("Not Found", { status: 404 });
}

export function NotFound() {
  return (
    <main className="center-page">
      <div className="card narrow center">
        <CompassIcon className="big-icon" />
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
