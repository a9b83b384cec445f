/**
 * "Changed by Sam (sam@example.com)": who last changed a setting, an app or an install (issue 18), shown the same
 * way on every page. `by` comes from `changedByLabel` (app/rules/delegation.ts); nothing is shown without it.
 * `inline` sits inside a sentence of its own paragraph ("Saved: 1 hr. Changed by you.").
 */
export function ChangedBy({
  by,
  testId,
  verb = "Changed",
  inline = false,
}: {
  by: string | null | undefined;
  testId: string;
  verb?: string;
  inline?: boolean;
}) {
  if (!by) return null;
  return inline ? (
    <span className="changed-by" data-testid={testId}>
      {" "}
      {verb} by {by}.
    </span>
  ) : (
    <p className="muted small changed-by" data-testid={testId}>
      {verb} by {by}
    </p>
  );
}
