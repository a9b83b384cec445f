import { json, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AppFrame } from "~/components/AppFrame";
import { appFrameData } from "~/components/app-frame.server";
import { ChevronIcon } from "~/components/dashboard/icons";
import { getParent } from "~/utils/auth.server";

export const SUPPORT = {
  email: "support@kids-portal.example",
  phone: "+44 20 7946 0958",
  address: "London, UK",
  howItWorks: "https://kids-portal.example/how-it-works",
};

export const meta: MetaFunction = () => [{ title: "Need a help? · Kids Portal" }];
// Public, but it knows whether someone is signed in: never kept in a cache (like the guarded pages).
export const headers: HeadersFunction = ({ loaderHeaders }) => ({ "Cache-Control": loaderHeaders.get("Cache-Control") ?? "no-store" });

/**
 * Spec 2 §2 /contact, public: "Need a help?" reaches it signed out too (the sign-in pages' footer). A signed-in
 * parent sees it inside the app's frame (header and menu), like every other page of theirs.
 */
export async function loader(args: LoaderFunctionArgs) {
  const auth = await getParent(args);
  const frame = auth ? await appFrameData(args, auth.parent) : null;
  return json({ frame }, { headers: { "Cache-Control": "no-store" } });
}

export default function Contact() {
  const { frame } = useLoaderData<typeof loader>();
  if (!frame)
    return (
      <main className="center-page">
        <ContactCard signedIn={false} />
      </main>
    );
  return (
    <AppFrame {...frame}>
      <ContactCard signedIn />
    </AppFrame>
  );
}

function ContactCard({ signedIn }: { signedIn: boolean }) {
  return (
    <section className="card narrow stack" aria-labelledby="contact-title">
      <Link to={signedIn ? "/kids-device" : "/login"} className="back-link">
        <ChevronIcon dir="left" /> {signedIn ? "Back to Home" : "Back to sign in"}
      </Link>
      <h1 id="contact-title">Need a help?</h1>
      <p>Our support team answers every message, usually within one working day.</p>
      <dl className="contact-list">
        <dt>Email</dt>
        <dd>
          <a href={`mailto:${SUPPORT.email}`}>{SUPPORT.email}</a>
        </dd>
        <dt>Phone</dt>
        <dd>
          <a href={`tel:${SUPPORT.phone.replace(/\s/g, "")}`}>{SUPPORT.phone}</a>
        </dd>
        <dt>Location</dt>
        <dd>{SUPPORT.address}</dd>
      </dl>
      <p>
        <a href={SUPPORT.howItWorks} rel="noopener noreferrer" target="_blank">
          How it works
        </a>
      </p>
      <details className="expander">
        <summary>How do I manage my subscription?</summary>
        <p>To cancel your subscription or for any billing question, please contact our support team by email or phone.</p>
      </details>
    </section>
  );
}
