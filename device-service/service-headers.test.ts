import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createParent } from "../db/queries/parents";
import { createTestDb, type TestDb } from "../db/index.testing";
import { parentFromServiceHeaders } from "./http";
import { SERVICE_KEY_HEADER, SERVICE_PARENT_EMAIL_HEADER, SERVICE_PARENT_HEADER, SERVICE_PARENT_ROLE_HEADER } from "./remote";

// Who a web tier's call acts for (DEVICE_SERVICE_URL): the shared key first, then the parent it names. The web tier
// sends the parent as its session check read it; a call with the id alone (an older web tier) is looked up.
const KEY = "s".repeat(40);

/** Counts the statements run, so a call that should not touch the database shows it. */
function counted(t: TestDb) {
  let statements = 0;
  const db = t.db.withPlugin({
    transformQuery: (args) => {
      statements++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  return { db, statements: () => statements };
}

const request = (headers: Record<string, string>) => ({ get: (name: string) => headers[name.toLowerCase()] });

let t: TestDb;
let parentId = "";

beforeAll(async () => {
  t = await createTestDb("sqlite");
  parentId = (await createParent(t.db, { email: "zoë@example.com", name: "Zoë", passwordHash: null })).id;
});
afterAll(async () => {
  await t?.destroy();
});

describe("the parent a web tier's call acts for", () => {
  it("takes the id, e-mail and role beside the right key, without a lookup (non-ASCII e-mail encoded)", async () => {
    const { db, statements } = counted(t);
    const who = await parentFromServiceHeaders(
      db,
      request({
        [SERVICE_KEY_HEADER]: KEY,
        [SERVICE_PARENT_HEADER]: parentId,
        [SERVICE_PARENT_EMAIL_HEADER]: encodeURIComponent("zoë@example.com"),
        [SERVICE_PARENT_ROLE_HEADER]: "parent",
      }),
      KEY,
    );
    expect(who).toEqual({ id: parentId, email: "zoë@example.com", role: "parent" });
    expect(statements()).toBe(0);
  });

  it("looks the parent up when only the id comes (an older web tier), and names nobody for an unknown id", async () => {
    const { db, statements } = counted(t);
    expect(await parentFromServiceHeaders(db, request({ [SERVICE_KEY_HEADER]: KEY, [SERVICE_PARENT_HEADER]: parentId }), KEY)).toEqual({
      id: parentId,
      email: "zoë@example.com",
      role: "parent",
    });
    expect(statements()).toBe(1);
    expect(
      await parentFromServiceHeaders(db, request({ [SERVICE_KEY_HEADER]: KEY, [SERVICE_PARENT_HEADER]: "no-such-parent" }), KEY),
    ).toBeNull();
  });

  it("names nobody without the key, with a wrong one, or when no key is configured", async () => {
    const named = { [SERVICE_PARENT_HEADER]: parentId, [SERVICE_PARENT_EMAIL_HEADER]: "a%40b.c", [SERVICE_PARENT_ROLE_HEADER]: "operator" };
    expect(await parentFromServiceHeaders(t.db, request(named), KEY)).toBeNull();
    expect(await parentFromServiceHeaders(t.db, request({ ...named, [SERVICE_KEY_HEADER]: "x".repeat(40) }), KEY)).toBeNull();
    expect(await parentFromServiceHeaders(t.db, request({ ...named, [SERVICE_KEY_HEADER]: KEY.slice(1) }), KEY)).toBeNull();
    expect(await parentFromServiceHeaders(t.db, request({ ...named, [SERVICE_KEY_HEADER]: KEY }), undefined)).toBeNull();
    expect(await parentFromServiceHeaders(t.db, request({ ...named, [SERVICE_KEY_HEADER]: KEY }), "")).toBeNull();
  });

  it("names nobody when the headers are malformed", async () => {
    const base = { [SERVICE_KEY_HEADER]: KEY, [SERVICE_PARENT_HEADER]: parentId };
    const bad = [
      { ...base, [SERVICE_PARENT_EMAIL_HEADER]: "a%40b.c", [SERVICE_PARENT_ROLE_HEADER]: "admin" }, // no such role
      { ...base, [SERVICE_PARENT_EMAIL_HEADER]: "a%40b.c" }, // e-mail without a role
      { ...base, [SERVICE_PARENT_ROLE_HEADER]: "parent" }, // role without an e-mail
      { ...base, [SERVICE_PARENT_EMAIL_HEADER]: "%E0%A4%A", [SERVICE_PARENT_ROLE_HEADER]: "parent" }, // broken encoding
      { ...base, [SERVICE_PARENT_EMAIL_HEADER]: "", [SERVICE_PARENT_ROLE_HEADER]: "parent" }, // empty e-mail
      {
        [SERVICE_KEY_HEADER]: KEY,
        [SERVICE_PARENT_HEADER]: "",
        [SERVICE_PARENT_EMAIL_HEADER]: "a%40b.c",
        [SERVICE_PARENT_ROLE_HEADER]: "parent",
      }, // no id
      {
        ...base,
        [SERVICE_PARENT_HEADER]: "x".repeat(65),
        [SERVICE_PARENT_EMAIL_HEADER]: "a%40b.c",
        [SERVICE_PARENT_ROLE_HEADER]: "parent",
      }, // id too long
    ];
    for (const headers of bad) expect(await parentFromServiceHeaders(t.db, request(headers), KEY)).toBeNull();
  });
});
