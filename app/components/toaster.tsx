import { useEffect, useState } from "react";
import { CloseIcon } from "~/components/dashboard/icons";

export interface ToastData {
  type: "success" | "error" | "info";
  message: string;
}

/**
 * Shows the server's message once; errors stay until dismissed, others fade after 6 s. Without JavaScript the
 * same holds by CSS alone: the × is the label of a hidden checkbox that hides the toast, and the fade is an
 * animation. The page keeps room below its content for the toast, so it never sits on the last control.
 *
 * A revalidation of the same page (the live refresh an action's own change sets off, `pageKey` unchanged) brings
 * no toast and keeps the one showing; a new page without a toast of its own drops it.
 */
export function Toaster({ toast, pageKey }: { toast: ToastData | null; pageKey?: string }) {
  const [visible, setVisible] = useState<ToastData | null>(toast);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (toast) setVisible(toast);
  }, [toast]);
  useEffect(() => {
    if (!toast) setVisible(null);
    // Only a change of page decides this; the toast's own changes are the effect above.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pageKey]);
  useEffect(() => {
    if (!visible || visible.type === "error") return;
    const t = setTimeout(() => setVisible(null), 6_000);
    return () => clearTimeout(t);
  }, [visible]);
  if (!visible) return null;
  return (
    <>
      {hydrated ? null : <input type="checkbox" id="toast-dismiss" className="toast-dismiss" />}
      <div
        className={`toast toast-${visible.type}${visible.type === "error" ? "" : " toast-fades"}`}
        role={visible.type === "error" ? "alert" : "status"}
        data-testid="toast"
      >
        <span>{visible.message}</span>
        {hydrated ? (
          <button type="button" className="toast-close" aria-label="Dismiss message" onClick={() => setVisible(null)}>
            <CloseIcon />
          </button>
        ) : (
          <label htmlFor="toast-dismiss" className="toast-close">
            <CloseIcon />
            <span className="sr-only">Dismiss message</span>
          </label>
        )}
      </div>
    </>
  );
}
