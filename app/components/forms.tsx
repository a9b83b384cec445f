import { useState, type InputHTMLAttributes, type ReactNode } from "react";
import { useHydrated } from "~/utils/hooks";

export function Field({
  label,
  id,
  errors,
  children,
  hint,
}: {
  label: string;
  id: string;
  errors?: string[] | null;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint ? <div className="hint">{hint}</div> : null}
      {errors?.length ? (
        <div className="field-error" id={`${id}-error`} role="alert">
          {errors.join(" ")}
        </div>
      ) : null}
    </div>
  );
}

/** A password input with a show/hide toggle. The toggle needs JavaScript, so it appears once hydrated. */
export function PasswordInput(props: InputHTMLAttributes<HTMLInputElement> & { id: string; label: string; errors?: string[] | null }) {
  const { label, errors, ...input } = props;
  const [shown, setShown] = useState(false);
  const hydrated = useHydrated();
  return (
    <Field label={label} id={input.id} errors={errors}>
      <div className="password-wrap">
        <input
          {...input}
          type={shown ? "text" : "password"}
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby={errors?.length ? `${input.id}-error` : undefined}
        />
        {hydrated ? (
          <button
            type="button"
            className="password-toggle"
            aria-label={shown ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
            aria-pressed={shown}
            onClick={() => setShown((s) => !s)}
          >
            {shown ? "Hide" : "Show"}
          </button>
        ) : null}
      </div>
    </Field>
  );
}

/** A submit button that is disabled with a spinner while its form is being sent. */
export function SubmitButton({
  busy,
  children,
  className = "btn btn-primary",
  ...rest
}: { busy: boolean; children: ReactNode; className?: string } & React.ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button type="submit" className={className} disabled={busy || rest.disabled} aria-busy={busy} {...rest}>
      {busy ? <span className="spinner" aria-hidden="true" /> : null}
      <span>{children}</span>
    </button>
  );
}

/** The form-level message from the server (or client validation), announced to screen readers. */
export function FormErrors({ errors, id }: { errors?: string[] | null; id?: string }) {
  if (!errors?.length) return null;
  return (
    <div className="banner banner-error" role="alert" id={id}>
      {errors.join(" ")}
    </div>
  );
}
