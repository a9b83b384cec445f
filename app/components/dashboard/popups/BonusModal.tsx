import { Modal } from "~/components/layout";
import { BonusTime } from "~/components/time-rules/TimeControls";
import type { DashData } from "../types";
import { useHrefWith } from "../url";

/** ?modal=bonus: extra minutes on the phone's daily limit for today only (issue 21 item 3). */
export function BonusModal({ data, error }: { data: DashData; error: string | null }) {
  const to = useHrefWith();
  return (
    <Modal title="Bonus time" closeHref={to({ modal: null, bonus: null })}>
      <BonusTime
        draft={data.bonus.draft}
        givenToday={data.bonus.given}
        error={error}
        what={`${data.profile.name}'s phone`}
        hidden={{ profileId: data.profile.id }}
      />
    </Modal>
  );
}
