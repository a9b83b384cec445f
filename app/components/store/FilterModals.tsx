import { Link } from "@remix-run/react";
import { Modal } from "~/components/layout";
import { AGE_LABELS, EXPERT_LABELS, exclusiveFilterChanges } from "~/rules/store";
import { AGE_RANGES, EXPERT_FILTERS } from "#core/store";
import type { StoreFilter } from "#core/store";

type To = (changes: Record<string, string | number | null>) => string;

/** A filter choice: applying it clears the other filters (spec 2 §4) and shows the first page of its results. */
const apply = (to: To, f: StoreFilter) => to({ ...exclusiveFilterChanges(f), tab: "search", modal: null, shown: null });

export function AgeModal({ to, current }: { to: To; current: StoreFilter }) {
  return (
    <Modal title="Age group" closeHref={to({ modal: null })} labelId="age-title">
      <ul className="choice-list">
        {AGE_RANGES.map((age) => (
          <li key={age}>
            <Link
              to={apply(to, { kind: "age", age })}
              aria-current={current.kind === "age" && current.age === age ? "true" : undefined}
              replace
            >
              {AGE_LABELS[age]}
            </Link>
          </li>
        ))}
      </ul>
    </Modal>
  );
}

export function ExpertModal({ to, current }: { to: To; current: StoreFilter }) {
  return (
    <Modal title="Expert rating" closeHref={to({ modal: null })} labelId="expert-title">
      <ul className="choice-list">
        {EXPERT_FILTERS.map((rating) => (
          <li key={rating}>
            <Link
              to={apply(to, { kind: "expert", rating })}
              aria-current={current.kind === "expert" && current.rating === rating ? "true" : undefined}
              replace
            >
              {EXPERT_LABELS[rating]}
            </Link>
          </li>
        ))}
      </ul>
    </Modal>
  );
}

/** The store's 56 categories, three per row (spec 2 §2, §9). */
export function CategoryModal({ to, current, categories }: { to: To; current: StoreFilter; categories: { id: string; name: string }[] }) {
  return (
    <Modal title="Category" closeHref={to({ modal: null })} labelId="category-title">
      <ul className="category-grid" aria-label="Store categories">
        {categories.map((c) => (
          <li key={c.id}>
            <Link
              to={apply(to, { kind: "category", category: c.id })}
              aria-current={current.kind === "category" && current.category === c.id ? "true" : undefined}
              replace
            >
              {c.name}
            </Link>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
