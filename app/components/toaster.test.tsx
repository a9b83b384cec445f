import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Toaster } from "./toaster";

// The toast as a browser without JavaScript gets it: dismissable by CSS alone, success fading by itself.
describe("Toaster without JavaScript", () => {
  it("can be dismissed without JavaScript (a labelled checkbox hides it) and a success fades by CSS", () => {
    const html = renderToString(<Toaster toast={{ type: "success", message: "Saved." }} />);
    expect(html).toMatch(/<input type="checkbox" id="toast-dismiss" class="toast-dismiss"/);
    expect(html).toMatch(/<label for="toast-dismiss" class="toast-close"[^>]*>.*Dismiss message/);
    expect(html).toContain("toast toast-success toast-fades");
  });

  it("an error stays until dismissed", () => {
    const html = renderToString(<Toaster toast={{ type: "error", message: "No." }} />);
    expect(html).toContain('id="toast-dismiss"');
    expect(html).not.toContain("toast-fades");
  });
});
