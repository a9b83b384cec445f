import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ChevronIcon } from "~/components/dashboard/icons";

const PAGES = {
  privacy: {
    title: "Privacy Policy",
    body: [
      "We keep what is needed to run the service: your account (name, email, a hash of your password), your kids' profiles, and what their phones report — app usage, location when tracking is on, notifications and device details.",
      "Card numbers and security codes never reach or stay on our servers; only the card's brand, last four digits and expiry are kept.",
      "You can ask us to export or delete your data at any time by writing to support.",
    ],
  },
  terms: {
    title: "Terms of Service",
    body: [
      "The portal lets a parent or guardian manage a child's phone that they are responsible for.",
      "You may give another adult access to chosen kids; you can revoke it at any time.",
      "Subscriptions renew until cancelled; contact support for cancellation and billing.",
    ],
  },
} as const;

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.title ?? "Legal"} · Kids Portal` }];

/** Public legal pages, linked from every footer. */
export async function loader({ params }: LoaderFunctionArgs) {
  const page = PAGES[params.page as keyof typeof PAGES];
  if (!page) throw new Response("Not Found", { status: 404 });
  return json(page);
}

export default function LegalPage() {
  const page = useLoaderData<typeof loader>();
  return (
    <main className="center-page">
      <article className="card narrow prose">
        <Link to="/login" className="back-link">
          <ChevronIcon dir="left" /> Back
        </Link>
        <h1>{page.title}</h1>
        {page.body.map((p) => (
          <p key={p}>{p}</p>
        ))}
      </article>
    </main>
  );
}
