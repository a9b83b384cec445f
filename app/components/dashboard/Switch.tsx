import { useHydrated } from "~/utils/hooks";

/**
 * An on/off switch that is a submit button, so it works without JavaScript: it posts `name=on|off` (the state
 * to go to) and the server answers with the page in that state. With JavaScript and `onToggle`, it flips local
 * state instead and the form is saved with its Save button.
 */
export function Switch({
  checked,
  label,
  name = "toggle",
  onToggle,
  disabled,
}: {
  checked: boolean;
  label: string;
  name?: string;
  onToggle?: (next: boolean) => void;
  disabled?: boolean;
}) {
  const hydrated = useHydrated();
  return (
    <button
      type="submit"
      name={onToggle ? name : undefined}
      value={onToggle ? (checked ? "off" : "on") : undefined}
      className="switch"
      role="switch"
      aria-checked={checked}
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
      <span>{label}</span>
    </button>
  );
}
