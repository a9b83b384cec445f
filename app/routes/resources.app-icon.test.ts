import type { LoaderFunctionArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { generatedIcon, generatedIconHref } from "#core/app-icon";
import { loader } from "./resources.app-icon";

const get = async (path: string): Promise<Response> => {
  try {
    return loader({ request: new Request(`http://localhost${path}`), params: {}, context: {} } as unknown as LoaderFunctionArgs);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
};

/** The drawn icons pages link to (issue 13 item 2; /play-store's weight, issue 13 performance). */
describe("/resources/app-icon", () => {
  it.each([
    ["com.duolingo", "Duolingo: Language Lessons"],
    ["org.school.homework1", "org.school.homework1"],
    ["com.example", "élan"],
    ["com.example.none", "!!!"],
  ])("draws %s's icon exactly as the inline one, for any cache to keep", async (pkg, title) => {
    const r = await get(generatedIconHref(pkg, title));
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(r.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(r.headers.get("content-security-policy")).toContain("sandbox");
    expect(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(await r.text())}`).toBe(generatedIcon(pkg, title));
  });

  it.each([
    "/resources/app-icon",
    "/resources/app-icon?p=com.x&t=%3Cb%3E",
    "/resources/app-icon?p=com.x&t=",
    "/resources/app-icon?p=..%2Fx&t=A",
    "/resources/app-icon?p=com.x&t=ABCDE",
  ])("refuses %s", async (path) => expect((await get(path)).status).toBe(404));
});
