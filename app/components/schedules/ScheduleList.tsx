import { Form, Link } from "@remix-run/react";
import { SubmitButton } from "~/components/forms";
import { Modal } from "~/components/layout";
import { useHrefWith } from "~/components/dashboard/url";
import { useIsSubmitting } from "~/utils/hooks";

export interface ScheduleItem {
  id: string;
  name: string;
  days: string;
  time: string;
  blocks: string;
}

/** The kid's schedules with edit and delete (delete asks first: ?confirm=delete&id=…), and Add Schedule. */
export function ScheduleList({ schedules, kidName }: { schedules: ScheduleItem[]; kidName: string }) {
  const to = useHrefWith();
  return (
    <section className="card settings-section" aria-labelledby="schedules-title">
      <h2 id="schedules-title">Schedules</h2>
      <p className="muted small">During a schedule&apos;s time, what it blocks cannot be used on {kidName}&apos;s phone, even offline.</p>
      {schedules.length ? (
        <ul className="schedule-list" data-testid="schedules">
          {schedules.map((s) => (
            <li key={s.id} className="row-between">
              <span>
                <strong>{s.name}</strong>
                <br />
                <span className="muted small">
                  {s.days} · {s.time} · {s.blocks}
                </span>
              </span>
              <span className="radio-row">
                <Link to={to({ modal: "edit", id: s.id, confirm: null, preset: null })} preventScrollReset aria-label={`Edit ${s.name}`}>
                  Edit
                </Link>
                <Link
                  to={to({ confirm: "delete", id: s.id, modal: null, preset: null })}
                  preventScrollReset
                  aria-label={`Delete ${s.name}`}
                >
                  Delete
                </Link>
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No schedules yet. Bedtime and School time are ready to add.</p>
      )}
      <div>
        <Link to={to({ modal: "add", id: null, confirm: null })} className="btn" preventScrollReset>
          Add Schedule
        </Link>
      </div>
    </section>
  );
}

/** ?confirm=delete&id=…: asks before a schedule is deleted. */
export function DeleteScheduleModal({ schedule }: { schedule: { id: string; name: string } }) {
  const to = useHrefWith();
  const busy = useIsSubmitting({ intent: "delete" });
  const close = to({ confirm: null, id: null });
  return (
    <Modal title="Delete schedule" closeHref={close}>
      <p>Delete {schedule.name}? What it blocks is usable again at once.</p>
      <Form method="post" className="modal-actions" preventScrollReset>
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="id" value={schedule.id} />
        <Link to={close} className="btn btn-outline" replace>
          Cancel
        </Link>
        <SubmitButton busy={busy} className="btn btn-danger">
          Delete
        </SubmitButton>
      </Form>
    </Modal>
  );
}

/** "Always allowed": apps usable whatever the time rules (the phone app and the kids app always are). */
export function AlwaysAllowed({ apps }: { apps: { packageName: string; title: string; alwaysAllowed: boolean }[] }) {
  const busy = useIsSubmitting({ intent: "always-allowed" });
  return (
    <section className="card settings-section" aria-labelledby="allowed-title">
      <h2 id="allowed-title">Always allowed</h2>
      <p className="muted small">These apps stay usable during schedules and when time is up. The phone app and the kids app always are.</p>
      <Form method="post" preventScrollReset className="stack">
        <input type="hidden" name="intent" value="always-allowed" />
        <div className="choice-list">
          {apps.map((a) => (
            <label key={a.packageName} className="choice">
              <input type="checkbox" name="allowed" value={a.packageName} defaultChecked={a.alwaysAllowed} />
              {a.title}
            </label>
          ))}
        </div>
        <div>
          <SubmitButton busy={busy} className="btn">
            Save always allowed
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}
