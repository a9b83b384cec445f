import { useHydrated } from "~/utils/hooks";

/**
 * An on/off switch that works without JavaScript: a submit `<button aria-pressed>` (a toggle button; valid HTML
 * and allowed by ARIA, unlike `role=switch` on a submit control), its text the label, drawn with a track before
 * it. A click submits the form; with `onToggle` it posts `<name>:on|off` (the state to go to, read by
 * `readSwitch`; the value is the label) and the server answers with the page in that state. With JavaScript and
 * `onToggle`, it flips local state instead and the form is saved with its Save button. Without `onToggle` the
 * form's hidden fields say what to do.
 */
export function Switch({
  checked,
  label,
  name = "toggle",
  onToggle,
  disabled,
  big,
}: {
  checked: boolean;
  label: string;
  name?: string;
  onToggle?: (next: boolean) => void;
  disabled?: boolean;
  big?: boolean;
}) {
  const hydrated = useHydrated();
  return (
    <button
      type="submit"
      className={big ? "switch big" : "switch"}
      aria-pressed={checked}
      name={onToggle ? `${name}:${checked ? "off" : "on"}` : undefined}
      value={label}
      disabled={disabled}
      onClick={
        hydrated && onToggle
          ? (e) => {
              e.preventDefault();
              onToggle(!checked);
            }
          : undefined
      }
    >
      <span className="switch-track" aria-hidden="true" />
      <span className="switch-label">{label}</span>
    </button>
  );
}
