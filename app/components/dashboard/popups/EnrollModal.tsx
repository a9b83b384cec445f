import { Form } from "@remix-run/react";
import { SubmitButton } from "~/components/forms";
import { Modal } from "~/components/layout";
import { formatDateTime as fmtDateTime } from "#core/format";
import { useIsSubmitting } from "~/utils/hooks";
import type { EnrollData } from "../types";
import { useHrefWith } from "../url";

/** ?modal=enroll: the one-time QR code (and link) that adds the kid's phone. */
export function EnrollModal({ kid, enroll }: { kid: { id: string; name: string }; enroll: EnrollData | null }) {
  const to = useHrefWith();
  const busy = useIsSubmitting({ intent: "enroll" });
  return (
    <Modal title="Add a phone" closeHref={to({ modal: null })}>
      <p>Open the Kids Portal app on {kid.name}&apos;s phone and scan this code. The code works once and expires soon.</p>
      {enroll ? (
        <div className="qr-box">
          <div className="qr" role="img" aria-label="Enrollment QR code" dangerouslySetInnerHTML={{ __html: enroll.svg }} />
          <p className="muted small">Expires {fmtDateTime(enroll.expiresAt)}</p>
          <p className="small break">
            Or enter this link on the phone: <code>{enroll.enrollUrl}</code>
          </p>
        </div>
      ) : null}
      <Form method="post" preventScrollReset>
        <input type="hidden" name="intent" value="enroll" />
        <input type="hidden" name="profileId" value={kid.id} />
        <SubmitButton busy={busy} className="btn">
          {enroll ? "Show a new code" : "Show QR code"}
        </SubmitButton>
      </Form>
    </Modal>
  );
}
