import { Modal } from "~/components/layout";
import type { DashData } from "../types";
import { useHrefWith } from "../url";

/** ?modal=recommendation: the screen-time recommendation for the kid's age (spec 1 §9). */
export function RecommendationModal({ data }: { data: DashData }) {
  const to = useHrefWith();
  const r = data.recommendation;
  return (
    <Modal title="Screen time recommendation" closeHref={to({ modal: null })}>
      <p>
        {data.profile.name} is {data.age} years old.
      </p>
      {r ? (
        <div className="recommendation" data-bracket={r.bracket}>
          <h3>{r.title}</h3>
          <p>{r.text}</p>
          {r.voucherTemplate ? (
            <p>
              <a
                href={`/resources/media-vouchers?hours=${r.weeklyHours}&name=${encodeURIComponent(data.profile.name)}`}
                target="_blank"
                rel="noreferrer"
              >
                Open the media-voucher template
              </a>
            </p>
          ) : null}
        </div>
      ) : (
        <p className="muted" data-bracket="none">
          There is no recommendation for this age.
        </p>
      )}
    </Modal>
  );
}
