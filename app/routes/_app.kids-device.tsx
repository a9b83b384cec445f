import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { listKidsForParent } from "../../db/queries/kids";
import { requireParent } from "~/utils/auth.server";

export const meta: MetaFunction = () => [{ title: "Kids Devices · Kids Portal" }];

export async function loader(args: LoaderFunctionArgs) {
  const { parent } = await requireParent(args);
  const kids = await listKidsForParent(args.context.services.db, parent, { pageSize: 50 });
  const url = new URL(args.request.url);
  const profileId = url.searchParams.get("profileId");
  const current = kids.find((k) => k.id === profileId) ?? kids[0] ?? null;
  if (profileId && !kids.some((k) => k.id === profileId)) throw new Response("Kid not found.", { status: 404 });
  return json({ useDefaultPassword: Boolean(parent.use_default_password), kids, current });
}

export default function KidsDevice() {
  const { useDefaultPassword, kids, current } = useLoaderData<typeof loader>();
  return (
    <div className="stack">
      {useDefaultPassword ? (
        <div className="banner banner-warning" role="alert">
          You are using the default password. <Link to="/change-password">Change your password</Link> to keep your account safe.
        </div>
      ) : null}
      {current?.serialNumber ? (
        <section className="card" aria-labelledby="kid-name">
          <nav aria-label="Kids" className="kid-switcher">
            {kids.map((k) => (
              <Link key={k.id} to={`/kids-device?profileId=${k.id}`} aria-current={k.id === current.id ? "page" : undefined} className="chip">
                {k.name}
              </Link>
            ))}
          </nav>
          <h1 id="kid-name">{current.name}</h1>
          <p className="muted">Device {current.serialNumber}</p>
        </section>
      ) : (
        <section className="card center empty-state">
          <h1>Kids Devices</h1>
          <p>No devices have been added yet.</p>
          <div className="button-row">
            <Link className="btn" to="/parent-profile">
              Go To Profile
            </Link>
            <Link className="btn btn-outline" to="/payment-history">
              Go To Payment History
            </Link>
            <Form method="post" action="/logout">
              <button className="btn btn-outline" type="submit">
                Log out
              </button>
            </Form>
          </div>
        </section>
      )}
    </div>
  );
}
