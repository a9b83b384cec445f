import { Link } from "@remix-run/react";
import { ChevronIcon } from "./icons";

/** A kid page's heading with the Back to Home link (spec 1 §2: every kid page has one). */
export function PageHead({ title, kidName, profileId }: { title: string; kidName: string; profileId: string }) {
  return (
    <div className="page-head-wrap">
      <Link to={`/kids-device?profileId=${profileId}`} className="back-link">
        <ChevronIcon dir="left" /> Back to Home
      </Link>
      <h1>{title}</h1>
      <p className="muted">{kidName}&apos;s phone</p>
    </div>
  );
}
