import { useEffect, useState } from "react";

export interface ToastData {
  type: "success" | "error" | "info";
  message: string;
}

/** Shows the server's message once; errors stay until dismissed, others fade after 6 s (with JavaScript). */
export function Toaster({ toast }: { toast: ToastData | null }) {
  const [visible, setVisible] = useState<ToastData | null>(toast);
  useEffect(() => {
    setVisible(toast);
    if (toast && toast.type !== "error") {
      const t = setTimeout(() => setVisible(null), 6_000);
      return () => clearTimeout(t);
    }
  }, [toast]);
  if (!visible) return null;
  return (
    <div className={`toast toast-${visible.type}`} role={visible.type === "error" ? "alert" : "status"} data-testid="toast">
      <span>{visible.message}</span>
      <button type="button" className="toast-close" aria-label="Dismiss message" onClick={() => setVisible(null)}>
        ×
      </button>
    </div>
  );
}
