import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../server/web.testing";
import { newId } from "#core/ids.server";
import { cachedGet } from "../utils/page-cache.testing";

// The real server (SQLite, demo family) answering /kids-device through the page cache (needs `remix build`).
let h: Awaited<ReturnType<typeof startTestServer>>;

let started: (typeof h)["started"];
let base: string;
let cookie: string;
let mia: { profileId: string; deviceId: string; serial: string };

const get = (url: string) => cachedGet(base, url, { Cookie: cookie });
const REFRESH = '<meta http-equiv="refresh"';
const head = (html: string) => /<head>[\s\S]*<\/head>/.exec(html)?.[0] ?? "";
/** The dashboard's install card, or "" when it is not shown. */
const card = (html: string) => /<section[^>]*data-testid="dashboard-installs"[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";

beforeAll(async () => {
  h = await startTestServer("dash-installs");
  ({ started, base } = h);
  const db = started.services.db;
  cookie = (await h.signIn("demo@kids-portal.test")).cookie;
  mia = await db
    .selectFrom("devices")
    .innerJoin("kid_profiles", "kid_profiles.id", "devices.profile_id")
    .select(["devices.id as deviceId", "devices.profile_id as profileId", "devices.serial_number as serial"])
    .where("kid_profiles.name", "=", "Mia")
    .executeTakeFirstOrThrow();
});
afterAll(async () => {
  await started?.close();
});

/** Issue 13 item 5: the dashboard shows store installs on their way (installing, failed and why), fresh in the page cache. */
describe("dashboard install state", () => {
  it("shows an installing app and refreshes itself without JavaScript; a failure shows its reason and a Why link; installed apps leave the card", async () => {
    const url = `/kids-device?profileId=${mia.profileId}`;
    const db = started.services.db;
    const before = await get(url);
    expect(before.res.status).toBe(200);
    expect(card(before.html)).toBe("");
    expect(head(before.html)).not.toContain(REFRESH);
    expect((await get(url)).cache).toBe("hit");

    const ts = new Date().toISOString();
    const id = newId();
    await db
      .insertInto("profile_apps")
      .values({
        id,
        profile_id: mia.profileId,
        device_id: mia.deviceId,
        package_name: "org.krita",
        is_installed: 0,
        install_state: "installing",
        install_type: "FORCE_INSTALLED",
        installation_failure_reason: null,
        created_at: ts,
        updated_at: ts,
        updated_by: null,
      })
      .execute();
    const installing = await get(url);
    expect(installing.cache).toBe("miss");
    const c1 = card(installing.html);
    expect(c1).toContain("Krita");
    expect(c1).toContain('data-state="installing"');
    expect(head(installing.html)).toContain(REFRESH);

    await db
      .updateTable("profile_apps")
      .set({ install_state: "failed", installation_failure_reason: "NETWORK_ERROR_UNRELIABLE_CONNECTION", updated_at: ts })
      .where("id", "=", id)
      .execute();
    const failed = await get(url);
    expect(failed.cache).toBe("miss");
    const c2 = card(failed.html);
    expect(c2).toContain('data-state="failed"');
    expect(c2).toContain("The phone lost its connection");
    const why = new URLSearchParams({ profile_id: mia.profileId, serialNumber: mia.serial, package_name: "org.krita", modal: "failure" });
    expect(c2).toContain(`href="/application?${why.toString().replace(/&/g, "&amp;")}"`);
    expect(head(failed.html)).not.toContain(REFRESH);
    const popup = await get(`/application?${why}`);
    expect(popup.res.status).toBe(200);
    expect(popup.html).toContain("resumes automatically as soon as the phone is back online");

    await db
      .updateTable("profile_apps")
      .set({ install_state: "installed", is_installed: 1, installation_failure_reason: null, updated_at: ts })
      .where("id", "=", id)
      .execute();
    const done = await get(url);
    expect(done.cache).toBe("miss");
    expect(card(done.html)).toBe("");
  });
});
