/**
 * A honeypot on public forms: a field people never see or fill (off-screen, skipped by keyboard and screen
 * readers). Bots that fill every input reveal themselves; the server then refuses the submission.
 */
export const HONEYPOT_FIELD = "website";
export const HONEYPOT_MESSAGE = "Your request could not be processed. Please try again.";

export function Honeypot() {
  return (
    <div className="hp-field" aria-hidden="true">
      <label htmlFor="hp-website">Leave this field empty</label>
      <input id="hp-website" type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

export function isHoneypotFilled(formData: FormData): boolean {
  const v = formData.get(HONEYPOT_FIELD);
  return typeof v === "string" && v.trim() !== "";
}
