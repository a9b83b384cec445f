import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { requireParent } from "~/utils/auth.server";

export const SUPPORT = {
  email: "support@kids-portal.example",
  phone: "+44 20 7946 0958",
  address: "London, UK",
  howItWorks: "https://kids-portal.example/how-it-works",
};

export const meta: MetaFunction = () => [{ title: "Need a help? · Kids Portal" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireParent(args);
  return null;
}

export default function Contact() {
  return (
    <section className="card narrow stack">
      <Link to="/kids-device" className="back-link">
        ← Back to Home
      </Link>
      <h1>Need a help?</h1>
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
        <summary>How do I manage your subscription?</summary>
        <p>To cancel your subscription or for any billing question, please contact our support team by email or phone.</p>
      </details>
    </section>
  );
}
