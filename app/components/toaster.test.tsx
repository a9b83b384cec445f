import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Toaster } from "./toaster";

// The toast as a browser without JavaScript gets it: in the one live region, dismissable by CSS alone, a success
// fading by itself.
describe("Toaster without JavaScript", () => {
  it("can be dismissed without JavaScript (a labelled checkbox hides it) and a success fades by CSS", () => {
    const html = renderToString(<Toaster toast={{ type: "success", message: "Saved." }} />);
    expect(html).toMatch(/<input type="checkbox" id="toast-dismiss-0" class="toast-dismiss"/);
    expect(html).toMatch(/<label for="toast-dismiss-0" class="toast-close"[^>]*>.*Dismiss message/);
    expect(html).toContain("toast toast-success toast-fades");
  });

  it("an error stays until dismissed, and is read in the same polite region (no alert of its own)", () => {
    const html = renderToString(<Toaster toast={{ type: "error", message: "No." }} />);
    expect(html).toContain('id="toast-dismiss-0"');
    expect(html).not.toContain("toast-fades");
    expect(html).not.toContain('role="alert"');
    expect(html.match(/aria-live=/g)).toHaveLength(1);
    expect(html).toMatch(/^<div class="toaster" role="status" aria-live="polite" aria-atomic="false"[^>]*>.*No\./);
  });

  it("the live region is there before any toast, so the first one is announced", () => {
    const html = renderToString(<Toaster toast={null} />);
    expect(html).toMatch(/^<div class="toaster" role="status" aria-live="polite"[^>]*><\/div>$/);
  });
});
