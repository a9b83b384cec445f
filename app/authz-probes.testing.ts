import { newId, nowIso } from "#core/ids.server";
import { addPaymentMethod } from "#db/queries/payments";
import { createEndpoint } from "#db/queries/webhooks";
import type { Actor, Fixture } from "./authz.testing";

// The states the authorisation matrix (authz-matrix.test.ts) probes: each makes what one row needs, fresh per actor.

export type Ids = Fixture["ids"] & {
  delegationId: string;
  cardId: string;
  browserLogId?: string;
  packageName?: string;
  category?: string;
  reportId?: string;
  requestId?: string;
  scheduleId?: string;
  endpointId?: string;
  placeId?: string;
};
export const kidQs = (i: Ids) => `profileId=${i.profileId}&serialNumber=${i.serialNumber}`;

/** A delegation of the owner's other kid (Leo) in the given state, so answering it never changes access to Mia. */
export async function freshDelegation(fx: Fixture, to: Actor, status: "Pending" | "Accepted"): Promise<Partial<Ids>> {
  const id = newId();
  const ts = nowIso();
  await fx.t.db
    .insertInto("delegations")
    .values({
      id,
      owner_parent_id: fx.parents.owner.id,
      delegate_email: fx.parents[to].email,
      delegate_name: fx.parents[to].name,
      status,
      created_at: ts,
      updated_at: ts,
    })
    .execute();
  await fx.t.db.insertInto("delegation_kids").values({ delegation_id: id, profile_id: fx.ids.otherKidId }).execute();
  return { delegationId: id };
}

/** A second (not default) saved card of the owner's: cards are the account owner's alone, never a delegate's. */
export async function ownersCard(fx: Fixture): Promise<Partial<Ids>> {
  const card = {
    brand: "visa",
    last4: "4242",
    exp_month: 12,
    exp_year: 2099,
    billing_name: "Owner",
    billing_email: fx.parents.owner.email,
  };
  await addPaymentMethod(fx.t.db, fx.parents.owner.id, card);
  const second = await addPaymentMethod(fx.t.db, fx.parents.owner.id, { ...card, last4: "4444" });
  return { cardId: second.id };
}

/** A webhook endpoint of the owner's: endpoints are each parent's own, never a delegate's. */
export async function ownersEndpoint(fx: Fixture): Promise<Partial<Ids>> {
  const endpointId = await createEndpoint(fx.t.db, fx.parents.owner.id, {
    url: "https://hooks.example.com/in",
    secret: "whsec_dGVzdC1zZWNyZXQtdGVzdC1zZWNyZXQtdGVzdA==",
    eventTypes: ["request.created"],
  });
  return { endpointId };
}

/** A visited address on the owner's kid's phone, for the lock/unlock toggle. */
export async function visitedUrl(fx: Fixture): Promise<Partial<Ids>> {
  const id = newId();
  const ts = nowIso();
  await fx.t.db
    .insertInto("browser_logs")
    .values({ id, device_id: fx.ids.deviceId, url: `example-${id.slice(0, 6)}.com`, day: ts.slice(0, 10), created_at: ts, updated_at: ts })
    .execute();
  return { browserLogId: id };
}

/** An app on the owner's kid's phone (one from the catalogue, installed here) and its store category. */
export async function installedApp(fx: Fixture): Promise<Partial<Ids>> {
  const db = fx.t.db;
  const have = await db
    .selectFrom("profile_apps")
    .select(["package_name", "play_store_category"])
    .where("device_id", "=", fx.ids.deviceId)
    .orderBy("package_name")
    .executeTakeFirst();
  if (have) return { packageName: have.package_name, category: have.play_store_category };
  const app = { package_name: "org.authz.matrix", genre_id: "EDUCATION" };
  const nulls = {
    icon: null,
    header_image: null,
    score_text: null,
    content_rating: null,
    developer: null,
    developer_id: null,
    android_version_text: null,
    description_html: null,
    recent_changes: null,
    updated: null,
    privacy_policy: null,
    url: null,
    expert_rating: null,
    expert_rating_comment: null,
  };
  await db
    .insertInto("store_categories")
    .values({ id: app.genre_id, name: "Education", sort: 1 })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
  await db
    .insertInto("catalog_apps")
    .values({ ...nulls, package_name: app.package_name, title: "Matrix Maths", genre: "Education", genre_id: app.genre_id })
    .onConflict((oc) => oc.column("package_name").doNothing())
    .execute();
  const ts = nowIso();
  await db
    .insertInto("profile_apps")
    .values({
      id: newId(),
      profile_id: fx.ids.profileId,
      device_id: fx.ids.deviceId,
      package_name: app.package_name,
      play_store_category: app.genre_id,
      is_installed: 1,
      disabled_type: null,
      installation_failure_reason: null,
      updated_by: null,
      created_at: ts,
      updated_at: ts,
    })
    .execute();
  return { packageName: app.package_name, category: app.genre_id };
}
/**
 * A Pending request of the owner's kid, on a fresh phone of hers (each actor's answers send commands: a fresh
 * phone keeps them clear of the 30-a-minute limit), for an app in the catalogue: on that phone, or (an install
 * request) a fresh store app not on it, since the store refuses to install an app twice.
 */
export function pendingRequest(type: "App Install" | "App Uninstall" | "Extend Time") {
  return async (fx: Fixture): Promise<Partial<Ids>> => {
    const db = fx.t.db;
    const ts = nowIso();
    const deviceId = newId();
    const serialNumber = `AUTHZ-REQ-${deviceId.slice(0, 8)}`;
    await db
      .insertInto("devices")
      .values({ id: deviceId, profile_id: fx.ids.profileId, serial_number: serialNumber, created_at: ts, updated_at: ts })
      .execute();
    const { packageName } = type === "App Install" ? await storeApp(fx) : await installedApp(fx);
    if (type !== "App Install")
      await db
        .insertInto("profile_apps")
        .values({
          id: newId(),
          profile_id: fx.ids.profileId,
          device_id: deviceId,
          package_name: packageName!,
          play_store_category: "EDUCATION",
          is_installed: 1,
          disabled_type: null,
          installation_failure_reason: null,
          updated_by: null,
          created_at: ts,
          updated_at: ts,
        })
        .execute();
    const requestId = newId();
    await db
      .insertInto("app_requests")
      .values({
        id: requestId,
        profile_id: fx.ids.profileId,
        device_id: deviceId,
        package_name: packageName!,
        request_type: type,
        extended_time: type === "Extend Time" ? 30 : 0,
        remarks: null,
        message_id: requestId,
        answered_by: null,
        answered_at: null,
        created_at: ts,
        updated_at: ts,
      })
      .execute();
    return { serialNumber, requestId };
  };
}
/** A Pending request of the stranger's kid (another family), asked about through the owner's kid's page. */
export async function strangersRequest(fx: Fixture): Promise<Partial<Ids>> {
  const device = await fx.t.db
    .selectFrom("devices")
    .select("id")
    .where("serial_number", "=", fx.ids.strangerSerial)
    .executeTakeFirstOrThrow();
  const ts = nowIso();
  const requestId = newId();
  await fx.t.db
    .insertInto("app_requests")
    .values({
      id: requestId,
      profile_id: fx.ids.strangerProfileId,
      device_id: device.id,
      package_name: "org.authz.matrix",
      request_type: "Extend Time",
      extended_time: 30,
      remarks: null,
      message_id: requestId,
      answered_by: null,
      answered_at: null,
      created_at: ts,
      updated_at: ts,
    })
    .execute();
  return { requestId };
}
export const requestForm =
  (intent: string, extra: Record<string, string> = {}) =>
  (i: Ids) => ({ intent, id: i.requestId ?? "", ...extra });

export const appQs = (i: Ids) =>
  `profile_id=${i.profileId}&serialNumber=${i.serialNumber}&package_name=${encodeURIComponent(i.packageName ?? "")}`;
/** A free store app not on the owner's kid's phone (fresh for each actor), for the store's install. */
export async function storeApp(fx: Fixture): Promise<Partial<Ids>> {
  const pkg = `org.authz.store${newId()
    .slice(0, 8)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "")}`;
  const nulls = {
    icon: null,
    header_image: null,
    score_text: null,
    content_rating: null,
    developer: null,
    developer_id: null,
    android_version_text: null,
    description_html: null,
    recent_changes: null,
    updated: null,
    privacy_policy: null,
    url: null,
    expert_rating: null,
    expert_rating_comment: null,
  };
  await fx.t.db
    .insertInto("store_categories")
    .values({ id: "EDUCATION", name: "Education", sort: 1 })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
  await fx.t.db
    .insertInto("catalog_apps")
    .values({ ...nulls, package_name: pkg, title: "Matrix Store", genre: "Education", genre_id: "EDUCATION" })
    .execute();
  return { packageName: pkg };
}
/** A store app installed on the owner's kid's phone (fresh for each actor), for the store's uninstall. */
export async function installedStoreApp(fx: Fixture): Promise<Partial<Ids>> {
  const { packageName } = await storeApp(fx);
  const ts = nowIso();
  await fx.t.db
    .insertInto("profile_apps")
    .values({
      id: newId(),
      profile_id: fx.ids.profileId,
      device_id: fx.ids.deviceId,
      package_name: packageName!,
      play_store_category: "EDUCATION",
      is_installed: 1,
      disabled_type: null,
      installation_failure_reason: null,
      updated_by: null,
      created_at: ts,
      updated_at: ts,
    })
    .execute();
  return { packageName };
}
export const storeQs = (i: Ids) => `${kidQs(i)}&tab=search&modal=install&appId=${encodeURIComponent(i.packageName ?? "")}`;
export const categoryQs = (i: Ids) => `${kidQs(i)}&id=${encodeURIComponent(i.category ?? "")}`;

/** A weekly report of the owner's kid. */
export async function kidReport(fx: Fixture): Promise<Partial<Ids>> {
  const have = await fx.t.db.selectFrom("reports").select("id").where("profile_id", "=", fx.ids.profileId).executeTakeFirst();
  if (have) return { reportId: have.id };
  const id = newId();
  const svg = '<svg xmlns="http://www.w3.org/2000/svg"/>';
  await fx.t.db
    .insertInto("reports")
    .values({
      id,
      profile_id: fx.ids.profileId,
      kind: "Weekly",
      period_start: "2026-11-09",
      period_end: "2026-11-16",
      time_zone: "UTC",
      title: "Weekly report",
      total_minutes: 60,
      previous_minutes: 30,
      daily_usage: "[]",
      top_apps: "[]",
      top_categories: "[]",
      limits_hit: "[]",
      requests_answered: "[]",
      bar_svg: svg,
      pie_svg: svg,
      bar_png: null,
      pie_png: null,
      mail_state: "none",
      mail_claimed_at: null,
      created_at: nowIso(),
    })
    .execute();
  return { reportId: id };
}

/** A schedule of the owner's kid (fresh for each actor, so a delete by one never hides it from the next). */
export async function kidSchedule(fx: Fixture): Promise<Partial<Ids>> {
  const id = newId();
  const ts = nowIso();
  await fx.t.db
    .insertInto("kid_schedules")
    .values({
      id,
      profile_id: fx.ids.profileId,
      name: "Bedtime",
      days: "[0,1,2,3,4,5,6]",
      start_minute: 1260,
      end_minute: 420,
      created_at: ts,
      updated_at: ts,
    })
    .execute();
  return { scheduleId: id };
}
/** Seven minutes for "Customise by day" (Monday first). */
export const WEEK = Object.fromEntries([60, 60, 60, 60, 60, 120, 120].map((m, d) => [`day${d}`, String(m)]));
export const schedulesQs = (i: Ids) => `/schedules?${kidQs(i)}`;
export const bedtimeForm = { intent: "save", name: "Bedtime", days: ["0", "6"], start: "21:00", end: "07:00", blocks: "all" };

/** A place named by the map page's forms: Mia's own, the family's, or one of the stranger's family (issue 55). */
export function aPlace(whose: "kid" | "family" | "stranger") {
  return async (fx: Fixture): Promise<Partial<Ids>> => {
    const id = newId();
    const ts = nowIso();
    const stranger = whose === "stranger";
    await fx.t.db
      .insertInto("places")
      .values({
        id,
        parent_id: stranger ? fx.parents.stranger.id : fx.parents.owner.id,
        profile_id: whose === "kid" ? fx.ids.profileId : stranger ? fx.ids.strangerProfileId : null,
        name: "Home",
        latitude: 51.5,
        longitude: -0.14,
        radius_m: 200,
        created_by: null,
        created_at: ts,
        updated_at: ts,
      })
      .execute();
    return { placeId: id };
  };
}
export const placeForm = (i: Ids) => ({
  name: "School",
  radiusM: "300",
  centre: "coordinates",
  latitude: "51.5",
  longitude: "-0.14",
  scope: "kid",
  ...(i.placeId ? { placeId: i.placeId } : {}),
});
