import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createDb, migrateToLatest, type DB } from "#db/index";
import { createParent } from "#db/queries/parents";
import { addPaymentMethod, listPaymentMethods } from "#db/queries/payments";
import { createSession } from "#db/queries/sessions";
import { createLogger } from "#core/log";
import { parseEnv } from "#core/env.server";
import { action, loader } from "./_app.payment-methods";

// The card page's loader and action through their real code paths, on a SQLite file (local provider).
const dir = mkdtempSync(path.join(os.tmpdir(), "kids-portal-payments-"));
process.env.SESSION_SECRET ??= "s".repeat(40);
process.env.DATA_DIR ??= dir;

const NUMBER = "4242424242424242";
const CVC = "8537";
const OTHER_NUMBER = "5555555555554444";
const OTHER_CVC = "6192";

describe("payment methods page (local provider)", () => {
  let db: DB;
  const dbFile = path.join(dir, "portal.sqlite");
  const logLines: string[] = [];
  let context: AppLoadContext;
  let alexToken: string;
  let samId: string;
  let samCardId: string;
  let samDefaultId: string;
  const consoleSpies: ReturnType<typeof vi.spyOn>[] = [];

  beforeAll(async () => {
    db = createDb({ url: dbFile });
    await migrateToLatest(db);
    const env = parseEnv({ NODE_ENV: "test", DATA_DIR: dir, SESSION_SECRET: "x".repeat(40), LOG_LEVEL: "debug" });
    const real = createLogger("debug");
    // The real logger (one JSON line per call), captured as it would be written.
    for (const m of ["log", "error", "warn", "info", "debug"] as const) {
      consoleSpies.push(vi.spyOn(console, m).mockImplementation((...args: unknown[]) => void logLines.push(args.map(String).join(" "))));
    }
    context = { services: { env, db, log: real }, cspNonce: "n" } as unknown as AppLoadContext;
    const alex = await createParent(db, { email: "alex-cards@example.com", name: "Alex", passwordHash: "x" });
    const sam = await createParent(db, { email: "sam-cards@example.com", name: "Sam", passwordHash: "x" });
    samId = sam.id;
    alexToken = await createSession(db, alex.id, { idleMinutes: 60, absoluteDays: 1 });
    samDefaultId = (
      await addPaymentMethod(db, sam.id, {
        brand: "visa",
        last4: "1111",
        exp_month: 1,
        exp_year: 2040,
        billing_name: "Sam",
        billing_email: sam.email,
      })
    ).id;
    samCardId = (
      await addPaymentMethod(db, sam.id, {
        brand: "mastercard",
        last4: "2222",
        exp_month: 1,
        exp_year: 2040,
        billing_name: "Sam",
        billing_email: sam.email,
      })
    ).id;
  });
  afterAll(async () => {
    for (const s of consoleSpies) s.mockRestore();
    await db?.destroy();
  });

  const post = (fields: Record<string, string>, token = alexToken) =>
    action({
      request: new Request("http://localhost/payment-methods?modal=add", {
        method: "POST",
        body: new URLSearchParams(fields),
        headers: { Authorization: `Bearer ${token}` },
      }),
      context: { ...context },
      params: {},
    });

  const card = (number: string, cvc: string, extra: Record<string, string> = {}) => ({
    intent: "add",
    card_name: "Alex Morgan",
    number,
    exp_month: "12",
    exp_year: "2031",
    cvc,
    ...extra,
  });

  it("a wrong number and a past expiry give clear messages, and the reply never carries the number or CVC back", async () => {
    const wrong = (await post(card("4242424242424241", OTHER_CVC))) as Response;
    expect(wrong.status).toBe(400);
    const body = await wrong.text();
    expect(body).toContain("Your card number is invalid.");
    expect(body).not.toContain("4242424242424241");
    expect(body).not.toContain(OTHER_CVC);
    expect(body).toContain("Alex Morgan"); // the other fields are kept for the person

    const past = (await post(card(OTHER_NUMBER, OTHER_CVC, { exp_month: "1", exp_year: "2020" }))) as Response;
    expect(past.status).toBe(400);
    const pastBody = await past.text();
    expect(pastBody).toContain("Your card's expiry date is in the past.");
    expect(pastBody).not.toContain(OTHER_NUMBER);
    expect(pastBody).not.toContain(OTHER_CVC);

    const declined = (await post(card("4000000000000002", OTHER_CVC))) as Response;
    expect(declined.status).toBe(400);
    const declinedBody = await declined.text();
    expect(declinedBody).toContain("Your card was declined.");
  });

  it("adds a demo card: only brand, last4, expiry and billing details are kept; the number and CVC are nowhere", async () => {
    const res = (await post(card(NUMBER.replace(/(\d{4})/g, "$1 ").trim(), CVC))) as Response;
    expect(res.status).toBe(302);
    const [saved] = await listPaymentMethods(
      db,
      (await db.selectFrom("parents").select("id").where("email", "=", "alex-cards@example.com").executeTakeFirstOrThrow()).id,
    );
    expect(saved).toMatchObject({
      brand: "visa",
      last4: "4242",
      exp_month: 12,
      exp_year: 2031,
      billing_name: "Alex Morgan",
      billing_email: "alex-cards@example.com",
      is_default: 1,
    });

    const outbox = await db.selectFrom("mail_outbox").select(["subject", "text_body"]).execute();
    const ids = [
      ...(await db.selectFrom("parents").select("id").execute()),
      ...(await db.selectFrom("payment_methods").select("id").execute()),
      ...(await db.selectFrom("sessions").select("id").execute()),
    ].map((r) => r.id);
    await db.destroy(); // checkpoints the WAL into the file
    db = createDb({ url: dbFile });
    context = { ...context, services: { ...context.services, db } } as AppLoadContext;
    // Random ids are hex: take them out so a 4-digit CVC cannot match by chance.
    let files = readdirSync(dir)
      .filter((f) => f.startsWith("portal.sqlite"))
      .map((f) => readFileSync(path.join(dir, f)).toString("latin1"))
      .join("\n");
    for (const id of ids) files = files.split(id).join("");
    const logs = logLines.join("\n");
    const mail = JSON.stringify(outbox);
    for (const [where, text] of [
      ["database file", files],
      ["logs", logs],
      ["mail outbox", mail],
    ] as const) {
      for (const secret of [NUMBER, NUMBER.replace(/(\d{4})/g, "$1 ").trim(), CVC, OTHER_NUMBER, OTHER_CVC]) {
        expect(text.includes(secret), `${secret} found in the ${where}`).toBe(false);
      }
    }
    expect(files).toContain("4242"); // the last four are there: the search itself works
  });

  it("another parent's card id is refused (404) on Mark As Default and Delete, and nothing changes", async () => {
    for (const intent of ["default", "delete"]) {
      const thrown = await post({ intent, id: samCardId }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(thrown).toBeInstanceOf(Response);
      expect((thrown as Response).status).toBe(404);
    }
    expect((await listPaymentMethods(db, samId)).map((c) => [c.id, c.is_default])).toEqual([
      [samDefaultId, 1],
      [samCardId, 0],
    ]);
  });

  it("the delete confirmation only opens for the parent's own, non-default cards", async () => {
    const get = async (qs: string) => {
      const res = (await loader({
        request: new Request(`http://localhost/payment-methods?${qs}`, { headers: { Authorization: `Bearer ${alexToken}` } }),
        context: { ...context },
        params: {},
      })) as Response;
      return (await res.json()) as {
        confirmCard: { id: string } | null;
        cards: { id: string; brand: string; last4: string; isDefault: boolean }[];
        modal: string | null;
      };
    };
    const page = await get(`confirm=delete&id=${samCardId}`);
    expect(page.confirmCard).toBeNull();
    expect(page.cards.map((c) => [c.brand, c.last4, c.isDefault])).toEqual([["visa", "4242", true]]);
    expect((await get(`confirm=delete&id=${page.cards[0]!.id}`)).confirmCard).toBeNull(); // the default card
    expect((await get("modal=add")).modal).toBe("add");
  });

  it("the same card twice is refused with a message; a card of the same brand and last four tells itself apart by expiry", async () => {
    const alexId = (await db.selectFrom("parents").select("id").where("email", "=", "alex-cards@example.com").executeTakeFirstOrThrow()).id;
    const before = await listPaymentMethods(db, alexId);
    const again = (await post(card(NUMBER, CVC))) as Response;
    expect(again.status).toBe(400);
    const body = await again.text();
    expect(body).toContain("This card is already saved: Visa ending in 4242, expires 12/2031.");
    expect(body).not.toContain(NUMBER);
    expect(body).not.toContain(CVC);
    expect(await listPaymentMethods(db, alexId)).toHaveLength(before.length);

    // The renewed card (a new expiry) is another card, and the delete confirmation names which one.
    const renewed = (await post(card(NUMBER, CVC, { exp_month: "3", exp_year: "2033" }))) as Response;
    expect(renewed.status).toBe(302);
    const cards = await listPaymentMethods(db, alexId);
    expect(cards.map((c) => `${c.brand} ${c.last4} ${c.exp_month}/${c.exp_year}`).sort()).toEqual([
      "visa 4242 12/2031",
      "visa 4242 3/2033",
    ]);
    const other = cards.find((c) => !c.is_default)!;
    const res = (await loader({
      request: new Request(`http://localhost/payment-methods?confirm=delete&id=${other.id}`, {
        headers: { Authorization: `Bearer ${alexToken}` },
      }),
      context: { ...context },
      params: {},
    })) as Response;
    const page = (await res.json()) as { confirmCard: { id: string } | null; cards: { id: string }[] };
    expect(page.confirmCard?.id).toBe(other.id); // the popup's words: app/components/payments/CardList.test.tsx
  });

  it("a signed-out visitor is sent to sign in", async () => {
    const thrown = await post({ intent: "default", id: samCardId }, "nope").then(
      () => null,
      (e: unknown) => e,
    );
    expect((thrown as Response).status).toBe(302);
  });
});
