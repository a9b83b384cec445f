import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import { limitSchema } from "./schemas";

/** The form as the browser sends it (the same FormData conform checks before sending and the action parses). */
function save(kind: "app" | "category", minutes: string, enableDailyLimit = "on") {
  const form = new FormData();
  form.append("intent", "limit");
  form.append("enableDailyLimit", enableDailyLimit);
  form.append("minutes", minutes);
  return parseWithZod(form, { schema: limitSchema(kind) });
}

const ENTER = "Please enter time.";
const POSITIVE = "Please enter time in positive.";
const WHOLE = "Please enter whole minutes from 0 to 1,440.";
const MULTIPLE = "Please enter time multiple of 15.";

describe("daily-limit Save, one schema for the browser and the action (spec 2 §5, issue 52)", () => {
  it.each<["app" | "category", string, string]>([
    ["app", "", ENTER],
    ["app", "   ", ENTER],
    ["app", "-15", POSITIVE],
    ["app", "1e5", WHOLE],
    ["app", "100000", WHOLE],
    ["app", "99999", WHOLE],
    ["app", "1441", WHOLE],
    ["app", "1e300", WHOLE],
    ["app", "20", MULTIPLE],
    ["category", "", ENTER],
    ["category", "-15", POSITIVE],
    ["category", "1e5", WHOLE],
    ["category", "100000", WHOLE],
    ["category", "25", MULTIPLE],
  ])("%s limit on, %j → %j (never a quiet 'no limit' or 24 hours)", (kind, minutes, message) => {
    const submission = save(kind, minutes);
    expect(submission.status).toBe("error");
    expect(submission.status === "error" ? submission.error : null).toEqual({ minutes: [message] });
  });

  it.each<["app" | "category", string, string, { enabled: boolean; minutes: number }]>([
    ["app", "on", "30", { enabled: true, minutes: 30 }],
    ["app", "on", " 1440 ", { enabled: true, minutes: 1440 }],
    ["app", "on", "0", { enabled: true, minutes: 0 }],
    ["category", "on", "60", { enabled: true, minutes: 60 }],
    ["app", "off", "-15", { enabled: false, minutes: 0 }],
    ["category", "off", "", { enabled: false, minutes: 0 }],
  ])("%s limit %s, %j → saved as %j", (kind, on, minutes, value) => {
    const submission = save(kind, minutes, on);
    expect(submission.status).toBe("success");
    expect(submission.status === "success" ? submission.value : null).toEqual(value);
  });
});
