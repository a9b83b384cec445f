/** The kid's age and the screen-time recommendation for it (spec 1 §9). */

// ---------------------------------------------------------------- age and recommendation

/** Completed years on the given date, from birth month (1–12) and year. */
export function kidAge(birthMonth: number, birthYear: number, today: Date): number {
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth() + 1;
  return Math.max(0, y - birthYear - (m < birthMonth ? 1 : 0));
}

export type RecommendationBracket = "under-2" | "2-to-4" | "4-to-8" | "9-to-10" | "10-plus";

export interface Recommendation {
  bracket: RecommendationBracket;
  title: string;
  text: string;
  /** Weekly budget in hours (10 and over: one hour per year of age, as media vouchers). */
  weeklyHours?: number;
  voucherTemplate?: boolean;
}

/**
 * Spec 1 §9, exactly: under 2 avoid screens; 2 to under 4, 5–10 minutes a day (1 hour at most as an exception);
 * 4 to under 8, 30–60 minutes a day; 8 to under 9 falls between brackets (no recommendation); 9 to under 10,
 * 30–60 minutes; 10 and over, a weekly budget of one hour per year of age given as media vouchers.
 */
export function screenTimeRecommendation(age: number): Recommendation | null {
  if (!Number.isFinite(age) || age < 0) return null;
  if (age < 2) return { bracket: "under-2", title: "Under 2 years", text: "Avoid screens altogether." };
  if (age < 4) return { bracket: "2-to-4", title: "2 to 4 years", text: "5 to 10 minutes a day, and at most 1 hour as an exception." };
  if (age < 8) return { bracket: "4-to-8", title: "4 to 8 years", text: "30 to 60 minutes a day at most." };
  if (age < 9) return null;
  if (age < 10) return { bracket: "9-to-10", title: "9 to 10 years", text: "30 to 60 minutes a day at most." };
  const hours = Math.floor(age);
  return {
    bracket: "10-plus",
    title: "10 years and over",
    text: `A weekly budget of one hour per year of age: ${hours} hours a week, given as media vouchers.`,
    weeklyHours: hours,
    voucherTemplate: true,
  };
}
