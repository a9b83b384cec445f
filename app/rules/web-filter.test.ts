import { describe, expect, it } from "vitest";
import {
  cleanDraft,
  describeChanges,
  draftFromForm,
  draftFromUrl,
  draftParams,
  withCategory,
  type WebFilterDraft,
} from "~/rules/web-filter";

const saved: WebFilterDraft = { blocked: [{ categoryId: "adult", scheduleId: null }], safeSearch: false, youtube: "off", allowList: [] };
const names = { categories: { adult: "Adult", "social-networks": "Social networks", games: "Games" }, schedules: { s1: "School time" } };

describe("the web filter draft", () => {
  it("the URL without a draft is the saved settings; a draft survives the round trip", () => {
    expect(draftFromUrl(new URLSearchParams("profileId=p"), saved)).toBe(saved);
    const d: WebFilterDraft = {
      blocked: [
        { categoryId: "adult", scheduleId: null },
        { categoryId: "games", scheduleId: "s1" },
      ],
      safeSearch: true,
      youtube: "strict",
      allowList: ["a.example", "b.example"],
    };
    expect(draftFromUrl(draftParams(d), saved)).toEqual(d);
    expect(draftFromUrl(draftParams({ ...d, blocked: [], allowList: [], safeSearch: false }), saved)).toMatchObject({
      blocked: [],
      allowList: [],
      safeSearch: false,
    });
  });

  it("reads the posted form: hidden fields, the schedule choice, the radio group", () => {
    const f = new FormData();
    f.append("block", "games");
    f.append("schedule.games", "s1");
    f.append("block", "adult");
    f.append("schedule.adult", "always");
    f.append("safeSearchOn", "on");
    f.append("youtube", "moderate");
    f.append("allow", "x.example");
    expect(draftFromForm(f)).toEqual({
      blocked: [
        { categoryId: "games", scheduleId: "s1" },
        { categoryId: "adult", scheduleId: null },
      ],
      safeSearch: true,
      youtube: "moderate",
      allowList: ["x.example"],
    });
    expect(draftFromForm(new FormData())).toEqual({ blocked: [], safeSearch: false, youtube: "off", allowList: [] });
  });

  it("cleans: unknown categories dropped, a foreign schedule becomes always, hosts once and sorted", () => {
    const d = cleanDraft(
      {
        blocked: [
          { categoryId: "games", scheduleId: "theirs" },
          { categoryId: "nope", scheduleId: null },
          { categoryId: "adult", scheduleId: "s1" },
          { categoryId: "adult", scheduleId: null },
        ],
        safeSearch: true,
        youtube: "loud" as never,
        allowList: ["b.example", "A.example", "b.example", " "],
      },
      ["adult", "games"],
      ["s1"],
    );
    expect(d).toEqual({
      blocked: [
        { categoryId: "adult", scheduleId: "s1" },
        { categoryId: "games", scheduleId: null },
      ],
      safeSearch: true,
      youtube: "off",
      allowList: ["a.example", "b.example"],
    });
  });

  it("a switch blocks (keeping a chosen schedule) and unblocks a category", () => {
    expect(withCategory(saved, "games", true).blocked).toEqual([...saved.blocked, { categoryId: "games", scheduleId: null }]);
    expect(withCategory(saved, "adult", false).blocked).toEqual([]);
    const scheduled = { ...saved, blocked: [{ categoryId: "adult", scheduleId: "s1" }] };
    expect(withCategory(scheduled, "adult", true).blocked).toEqual([{ categoryId: "adult", scheduleId: "s1" }]);
  });

  it.each<[string, Partial<WebFilterDraft>, string]>([
    ["nothing", {}, "Web filter saved: nothing changed."],
    [
      "a category blocked, one unblocked",
      { blocked: [{ categoryId: "social-networks", scheduleId: null }] },
      "Web filter saved: Adult unblocked; Social networks blocked.",
    ],
    [
      "a schedule",
      { blocked: [...saved.blocked, { categoryId: "games", scheduleId: "s1" }] },
      "Web filter saved: Games blocked during School time.",
    ],
    [
      "a schedule changed",
      { blocked: [{ categoryId: "adult", scheduleId: "s1" }] },
      "Web filter saved: Adult now blocked during School time.",
    ],
    ["SafeSearch and YouTube", { safeSearch: true, youtube: "strict" }, "Web filter saved: SafeSearch on; YouTube Restricted Mode strict."],
    ["one host", { allowList: ["khanacademy.org"] }, "Web filter saved: khanacademy.org always allowed."],
    ["three hosts", { allowList: ["a.example", "b.example", "c.example"] }, "Web filter saved: 3 sites always allowed."],
  ])("Save's toast: %s", (_, change, message) => expect(describeChanges(saved, { ...saved, ...change }, names)).toBe(message));

  it("Save's toast: a site removed, a schedule back to always", () => {
    const before = { ...saved, blocked: [{ categoryId: "adult", scheduleId: "s1" }], allowList: ["a.example"] };
    expect(describeChanges(before, saved, names)).toBe(
      "Web filter saved: Adult now blocked at all times; a.example no longer always allowed.",
    );
  });
});
