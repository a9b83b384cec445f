import { Switch } from "~/components/dashboard/Switch";
import type { WebFilterDraft } from "~/rules/web-filter";

const count = new Intl.NumberFormat("en-US");

/** The categories, each a switch with its description and listed domains, and when blocked the schedule it follows. */
export function CategoryList({
  categories,
  schedules,
  draft,
  onToggle,
  onSchedule,
}: {
  categories: { id: string; name: string; description: string; domains: number }[];
  schedules: { id: string; name: string }[];
  draft: WebFilterDraft;
  onToggle: (categoryId: string, blocked: boolean) => void;
  onSchedule: (categoryId: string, scheduleId: string | null) => void;
}) {
  return (
    <section className="card settings-section" id="categories" aria-labelledby="categories-title">
      <h2 id="categories-title">Blocked categories</h2>
      <p className="muted small">Sites of a switched-on category do not open in any browser or app on the phone.</p>
      <ul className="wf-categories">
        {categories.map((c) => {
          const blocked = draft.blocked.find((b) => b.categoryId === c.id);
          return (
            <li key={c.id} id={`cat-${c.id}`} className="wf-category">
              <Switch checked={Boolean(blocked)} name={`cat.${c.id}`} label={c.name} onToggle={(next) => onToggle(c.id, next)} />
              <p className="muted small wf-description">
                {c.description}{" "}
                <span className="wf-count">{`${count.format(c.domains)} ${c.domains === 1 ? "site" : "sites"} listed`}</span>
              </p>
              {blocked ? (
                <>
                  <input type="hidden" name="block" value={c.id} />
                  <label className="wf-when">
                    <span>Blocked</span>
                    <select
                      name={`schedule.${c.id}`}
                      value={blocked.scheduleId ?? "always"}
                      onChange={(e) => onSchedule(c.id, e.target.value === "always" ? null : e.target.value)}
                    >
                      <option value="always">at all times</option>
                      {schedules.map((s) => (
                        <option key={s.id} value={s.id}>
                          {`during ${s.name}`}
                        </option>
                      ))}
                    </select>
                  </label>
                </>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
