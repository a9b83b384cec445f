import { PassThrough } from "node:stream";
import { createElement, type ReactElement } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { withoutViewPadding } from "./entry.server";

/** Renders with React's Node streaming renderer, collecting the bytes as entry.server does. */
function render(el: ReactElement): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new PassThrough();
    sink.on("data", (c: Buffer) => chunks.push(Buffer.from(c)));
    sink.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    const { pipe } = renderToPipeableStream(el, { onAllReady: () => pipe(sink), onError: reject });
  });
}

describe("documents", () => {
  it("an en dash that does not fit at the end of React's 2 KB view leaves no NUL in the page", async () => {
    // 145 × "<b>abcdefg</b>" after "<div>", then "<i>" and 8 letters: the dash starts at byte 2,046 of 2,048.
    const kids = [
      ...Array.from({ length: 145 }, (_, i) => createElement("b", { key: i }, "abcdefg")),
      createElement("i", { key: "x" }, "aaaaaaaa– dash"),
    ];
    const raw = await render(createElement("div", null, ...kids));
    expect(raw).toContain("\u0000"); // React 18's renderer pads the view: the case this guards against
    const cleaned = withoutViewPadding(raw);
    expect(cleaned).not.toContain("\u0000");
    expect(cleaned).toContain("<i>aaaaaaaa– dash</i>");
    // handleRequest works on the page's bytes (latin1 view), never decoded: the same NULs go, the dash stays whole.
    expect(Buffer.from(withoutViewPadding(Buffer.from(raw).toString("latin1")), "latin1").toString("utf8")).toBe(cleaned);
  });

  it("leaves a page without NUL as it is", () => {
    expect(withoutViewPadding("<p>a – b</p>")).toBe("<p>a – b</p>");
  });
});
