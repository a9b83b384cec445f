import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import { answerDelegation, createDelegation, revokeDelegation } from "#db/queries/delegations";
import { newId, nowIso } from "#core/ids.server";
import { createKidProfile } from "#db/queries/kids";
import { createParent } from "#db/queries/parents";
import { createSession } from "#db/queries/sessions";
import type { Parent } from "#db/schema";
import { createTestDb, type TestDb } from "#db/index.testing";
import { createLocalBus, type Bus, type BusMessage } from "#device-service/bus";
import { createDeviceCaller } from "#device-service/caller";
import { parseEnv } from "#core/env.server";

process.env.DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), "kids-portal-authz-"));

/**
 * Two families and every kind of delegate, for tests that call route loaders and actions as each of them:
 * the owner (Alice, kids Mia with a phone and Leo), delegates of Mia who accepted, are pending, were revoked
 * or rejected, and a stranger (another family, kid Zed with a phone). Each request gets its own load context.
 */
export const ACTORS = ["owner", "accepted", "pending", "revoked", "rejected", "stranger"] as const;
export type Actor = (typeof ACTORS)[number];

export interface Fixture {
  t: TestDb;
  bus: Bus;
  published: BusMessage[];
  parents: Record<Actor, Parent>;
  ids: { profileId: string; serialNumber: string; deviceId: string; otherKidId: string; strangerProfileId: string; strangerSerial: string };
  delegationIds: Record<"accepted" | "pending" | "revoked" | "rejected", string>;
  context(): AppLoadContext;
  request(actor: Actor | null, method: "GET" | "POST", url: string, form?: Record<string, string | string[]>): Request;
  close(): Promise<void>;
}

async function addPhone(t: TestDb, profileId: string, serial: string): Promise<string> {
  const id = newId();
  const ts = nowIso();
  await t.db.insertInto("devices").values({ id, profile_id: profileId, serial_number: serial, created_at: ts, updated_at: ts }).execute();
  await t.db.insertInto("device_status").values({ device_id: id, battery_percentage: 80, updated_at: ts }).execute();
  return id;
}

export async function createAuthzFixture(dialect: "sqlite" | "postgres" = "sqlite"): Promise<Fixture> {
  const t = await createTestDb(dialect);
  const bus = createLocalBus();
  const published: BusMessage[] = [];
  bus.subscribe((m) => void published.push(m));
  const mk = (email: string, name: string, verified = true) =>
    createParent(t.db, { email, name, passwordHash: null, emailVerified: verified });
  const parents: Record<Actor, Parent> = {
    owner: await mk("alice@family.example", "Alice"),
    accepted: await mk("bob@family.example", "Bob"),
    pending: await mk("carol@family.example", "Carol"),
    revoked: await mk("dan@family.example", "Dan"),
    rejected: await mk("erin@family.example", "Erin"),
    stranger: await mk("eve@other.example", "Eve"),
  };
  const profileId = await createKidProfile(t.db, parents.owner.id, { name: "Mia", birthMonth: 3, birthYear: 2014 });
  const otherKidId = await createKidProfile(t.db, parents.owner.id, { name: "Leo", birthMonth: 8, birthYear: 2019 });
  await t.db
    .updateTable("kid_profiles")
    .set({ picture: Buffer.from([0x89, 0x50, 0x4e, 0x47]), picture_mime: "image/png" })
    .where("id", "=", profileId)
    .execute();
  const serialNumber = "AUTHZ-MIA-1";
  const deviceId = await addPhone(t, profileId, serialNumber);
  const strangerProfileId = await createKidProfile(t.db, parents.stranger.id, { name: "Zed", birthMonth: 1, birthYear: 2015 });
  const strangerSerial = "AUTHZ-ZED-1";
  await addPhone(t, strangerProfileId, strangerSerial);

  const invite = async (who: Actor) => {
    const d = await createDelegation(t.db, parents.owner, {
      email: parents[who].email,
      name: parents[who].name,
      allowedKids: [profileId],
      accessLevel: "full",
    });
    if (!d.ok) throw new Error(d.message);
    return d.id;
  };
  const delegationIds = {
    accepted: await invite("accepted"),
    pending: await invite("pending"),
    revoked: await invite("revoked"),
    rejected: await invite("rejected"),
  };
  await answerDelegation(t.db, parents.accepted, delegationIds.accepted, "Accepted");
  await answerDelegation(t.db, parents.revoked, delegationIds.revoked, "Accepted");
  await revokeDelegation(t.db, parents.owner.id, delegationIds.revoked);
  await answerDelegation(t.db, parents.rejected, delegationIds.rejected, "Rejected");

  const tokens = {} as Record<Actor, string>;
  for (const a of Object.keys(parents) as Actor[])
    tokens[a] = await createSession(t.db, parents[a].id, { idleMinutes: 60, absoluteDays: 1 });

  const env = parseEnv({ NODE_ENV: "test", DATA_DIR: process.env.DATA_DIR, SESSION_SECRET: "z".repeat(40), PORT: "4399" });
  const log = () => {};
  const services = {
    env,
    db: t.db,
    bus,
    log,
    device: (p: { id: string; email: string; role: "parent" | "operator" } | null) =>
      createDeviceCaller({ db: t.db, bus, log, parent: p, publicUrl: "http://localhost:4399" }),
  };
  return {
    t,
    bus,
    published,
    parents,
    ids: { profileId, serialNumber, deviceId, otherKidId, strangerProfileId, strangerSerial },
    delegationIds,
    context: () => ({ services, cspNonce: "n" }) as unknown as AppLoadContext,
    request(actor, method, url, form) {
      const headers: Record<string, string> = actor ? { Authorization: `Bearer ${tokens[actor]}` } : {};
      if (method === "GET") return new Request(new URL(url, "http://localhost"), { headers });
      const body = new URLSearchParams();
      for (const [k, v] of Object.entries(form ?? {})) for (const one of [v].flat()) body.append(k, one);
      return new Request(new URL(url, "http://localhost"), { method, headers, body });
    },
    async close() {
      await bus.close();
      await t.destroy();
    },
  };
}
