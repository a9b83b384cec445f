import { describe, expect, it } from "vitest";
import {
  changedByLabel,
  DEFAULT_ACCESS_LEVEL,
  REQUIRED_FIELDS_MESSAGE,
  checkDelegateForm,
  emailDomain,
  inviteAddress,
  statusBadgeColour,
  usernameProblem,
} from "./delegation";

describe("status badges (spec 1 §4)", () => {
  it.each([
    ["Accepted", "green"],
    ["Pending", "yellow"],
    ["Rejected", "red"],
    ["Revoked", "grey"],
    ["", "grey"],
    [null, "grey"],
    ["accepted", "grey"],
  ] as const)("%j is %s", (status, colour) => expect(statusBadgeColour(status)).toBe(colour));
});

describe("the invited address: a username at the owner's own domain (spec 1 §5)", () => {
  it.each([
    ["bob", "alice@example.com", "bob@example.com"],
    ["  Bob.Smith ", "Alice@Family.Example.org", "bob.smith@family.example.org"],
    ["j+kids", "a@b.co", "j+kids@b.co"],
  ])("%j with owner %s → %s", (username, owner, address) => expect(inviteAddress(username, owner)).toBe(address));

  it("the domain is what follows the last @", () => {
    expect(emailDomain("a@b@c.example")).toBe("c.example");
    expect(emailDomain("Alice@Example.COM")).toBe("example.com");
  });
});

describe("username check", () => {
  it.each(["bob", "bob.smith", "b_o-b+1", "a".repeat(64)])("accepts %j", (u) => expect(usernameProblem(u)).toBeNull());
  it.each([
    ["bob@example.com", /only the part before the @/],
    ["bob smith", /letters, digits/],
    [".bob", /cannot start or end with a dot/],
    ["bob.", /cannot start or end with a dot/],
    ["bo..b", /two dots/],
    ["a".repeat(65), /at most 64/],
    ["bøb", /letters, digits/],
  ])("refuses %j", (u, message) => expect(usernameProblem(u)).toMatch(message));
});

describe("delegate save: username, name and at least one kid are required (spec 1 §5)", () => {
  const ok = { username: "bob", name: "Bob", allowedKids: ["k1"] };
  it("a complete form passes, with the full address and access level full", () => {
    expect(checkDelegateForm(ok, "alice@example.com")).toEqual({
      ok: true,
      value: { email: "bob@example.com", name: "Bob", allowedKids: ["k1"], accessLevel: "full" },
    });
    expect(DEFAULT_ACCESS_LEVEL).toBe("full");
  });

  it.each([
    ["no username", { ...ok, username: "" }],
    ["a blank username", { ...ok, username: "   " }],
    ["no name", { ...ok, name: "" }],
    ["a blank name", { ...ok, name: " \t" }],
    ["no kid", { ...ok, allowedKids: [] }],
    ["empty kid ids only", { ...ok, allowedKids: ["", " "] }],
    ["nothing at all", { username: undefined, name: undefined, allowedKids: undefined }],
  ])("%s → 'Please fill all required fields.'", (_label, form) => {
    expect(checkDelegateForm(form, "alice@example.com")).toEqual({ ok: false, message: REQUIRED_FIELDS_MESSAGE });
    expect(REQUIRED_FIELDS_MESSAGE).toBe("Please fill all required fields.");
  });

  it("a malformed username gets its own message", () => {
    const r = checkDelegateForm({ ...ok, username: "bob@evil.example" }, "alice@example.com");
    expect(r).toEqual({ ok: false, message: expect.stringMatching(/only the part before the @/) });
  });

  it("a name over 80 characters is refused; duplicate kids are kept once", () => {
    expect(checkDelegateForm({ ...ok, name: "x".repeat(81) }, "a@b.co")).toEqual({
      ok: false,
      message: "The name must be at most 80 characters.",
    });
    expect(checkDelegateForm({ ...ok, allowedKids: ["k1", "k1", "k2"] }, "a@b.co")).toMatchObject({
      ok: true,
      value: { allowedKids: ["k1", "k2"] },
    });
  });

  it("inviting yourself is refused", () => {
    expect(checkDelegateForm({ ...ok, username: "Alice" }, "alice@example.com")).toEqual({
      ok: false,
      message: "You already have access to your own kids.",
    });
  });
});

describe("changed by (issue 18)", () => {
  const sam = { id: "p-sam", name: "Sam", email: "sam@example.com" };
  it.each([
    [sam, "p-owner", "Sam (sam@example.com)"],
    [sam, "p-sam", "you"],
    [null, "p-owner", null],
    [undefined, "p-owner", null],
  ] as const)("%o seen by %s reads %s", (actor, viewer, label) => {
    expect(changedByLabel(actor, viewer)).toBe(label);
  });
});
