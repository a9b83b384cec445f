import { useEffect, useRef, useState } from "react";
import { ToastStack, toastSide, type StackedToast, type ToastData, type ToastSide } from "./toast-stack";
import { CloseIcon } from "~/components/dashboard/icons";

export type { ToastData } from "./toast-stack";

/**
 * The server's messages as toasts in one polite live region (role=status), stacked (toast-stack.ts: each success
 * or info stays TOAST_LIFE_MS from its own appearance, errors until dismissed; the pointer over the stack or focus
 * in it pauses them).
 *
 * Without JavaScript the page shows the one toast its request carried: the × is the label of a hidden checkbox that
 * hides it, and a success fades by a CSS animation after the same time. With JavaScript each new toast of the root
 * loader (a redirect's flash, whatever form sent it) joins the stack, which sits away from the control just pressed
 * (`toastSide`); the page keeps room below its content for a bottom stack (app.css).
 */
export function Toaster({ toast }: { toast: ToastData | null }) {
  const [stack] = useState(() => new ToastStack());
  const [shown, setShown] = useState<readonly StackedToast[]>(() => (toast ? [{ ...toast, id: 0, at: 0 }] : []));
  const [hydrated, setHydrated] = useState(false);
  const [side, setSide] = useState<ToastSide>("bottom");
  const seen = useRef<ToastData | null>(toast);
  const pressed = usePressedControl();
  useEffect(() => {
    const off = stack.subscribe(() => setShown(stack.snapshot()));
    // The server's toast (id 0, like its server rendering) appeared about now.
    if (seen.current) stack.add(seen.current);
    setShown(stack.snapshot());
    setHydrated(true);
    return () => {
      off();
      stack.clear();
    };
  }, [stack]);
  useEffect(() => {
    if (!toast || toast === seen.current) return;
    seen.current = toast;
    setSide(toastSide(pressed.current?.isConnected ? pressed.current.getBoundingClientRect() : null, window.innerHeight));
    stack.add(toast);
  }, [toast, stack, pressed]);
  return (
    <div
      className="toaster"
      role="status"
      aria-live="polite"
      aria-atomic="false"
      aria-label="Messages"
      data-side={side}
      data-testid="toaster"
      onMouseEnter={() => stack.pause()}
      onMouseLeave={() => stack.resume()}
      onFocus={() => stack.pause()}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) stack.resume();
      }}
    >
      {shown.map((t) =>
        hydrated ? (
          <div key={t.id} className={`toast toast-${t.type}`} data-testid="toast">
            <span>{t.message}</span>
            <button type="button" className="toast-close" aria-label="Dismiss message" onClick={() => stack.dismiss(t.id)}>
              <CloseIcon />
            </button>
          </div>
        ) : (
          <NoJsToast key={t.id} toast={t} />
        ),
      )}
    </div>
  );
}

/** The server's toast: dismissed by a labelled checkbox, a success or info fading by CSS. */
function NoJsToast({ toast }: { toast: StackedToast }) {
  const dismissId = `toast-dismiss-${toast.id}`;
  return (
    <>
      <input type="checkbox" id={dismissId} className="toast-dismiss" />
      <div className={`toast toast-${toast.type}${toast.type === "error" ? "" : " toast-fades"}`} data-testid="toast">
        <span>{toast.message}</span>
        <label htmlFor={dismissId} className="toast-close">
          <CloseIcon />
          <span className="sr-only">Dismiss message</span>
        </label>
      </div>
    </>
  );
}

/** The control the parent last pressed (a form's submitter, a button or switch, a link). */
function usePressedControl() {
  const pressed = useRef<Element | null>(null);
  useEffect(() => {
    const onSubmit = (e: SubmitEvent) => {
      pressed.current = e.submitter ?? (e.target as Element | null);
    };
    const onClick = (e: MouseEvent) => {
      const el = (e.target as Element | null)?.closest?.("button, a, input, summary");
      if (el && !el.closest(".toaster")) pressed.current = el;
    };
    document.addEventListener("submit", onSubmit, true);
    document.addEventListener("click", onClick, true);
    return () => {
      document.removeEventListener("submit", onSubmit, true);
      document.removeEventListener("click", onClick, true);
    };
  }, []);
  return pressed;
}
