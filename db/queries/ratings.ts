import type { DB } from "../index";
import { nowIso } from "../../core/ids.server";
import { cleanPhoneTextOrNull } from "../../core/phone-text";

/** Kids' and parents' ratings of one app (spec 2 §3), across every family: aggregates and the last five reviews. */

const pct = (n: number, total: number) => (total > 0 ? Math.round((n / total) * 100) : 0);
const avg1 = (v: unknown) => (v === null || v === undefined ? null : Math.round(Number(v) * 10) / 10);

export async function getKidRatings(db: DB, packageName: string) {
  const [agg, last] = await Promise.all([
    db
      .selectFrom("kid_ratings")
      .select((eb) => [
        eb.fn.avg<number>("rating").as("avg"),
        eb.fn.countAll<number>().as("total"),
        eb.fn.sum<number>(eb.case().when("rating", ">=", 3).then(1).else(0).end()).as("positive"),
        eb.fn.sum<number>(eb.case().when("rating", "=", 2).then(1).else(0).end()).as("natural"),
        eb.fn.sum<number>(eb.case().when("rating", "<", 2).then(1).else(0).end()).as("negative"),
      ])
      .where("package_name", "=", packageName)
      .executeTakeFirst(),
    db
      .selectFrom("kid_ratings as r")
      .innerJoin("kid_profiles as k", "k.id", "r.profile_id")
      .select(["r.id", "r.rating", "r.review", "r.created_at", "k.name", "k.birth_year", "k.birth_month"])
      .where("r.package_name", "=", packageName)
      .orderBy("r.created_at", "desc")
      .orderBy("r.id")
      .limit(5)
      .execute(),
  ]);
  const total = Number(agg?.total ?? 0);
  const count = (v: unknown) => Number(v ?? 0);
  return {
    avgKidsRating: total ? avg1(agg?.avg) : null,
    totalKidsRating: total,
    positive: count(agg?.positive),
    natural: count(agg?.natural),
    negative: count(agg?.negative),
    positivePercent: pct(count(agg?.positive), total),
    naturalPercent: pct(count(agg?.natural), total),
    negativePercent: pct(count(agg?.negative), total),
    lastFiveReviews: last.map((r) => ({
      id: r.id,
      kidsRating: r.rating,
      name: r.name,
      birthYear: r.birth_year,
      birthMonth: r.birth_month,
      review: cleanPhoneTextOrNull(r.review), // stored before phone text was cleaned at ingest (core/phone-text.ts)
      created_at: r.created_at,
    })),
  };
}

export async function getParentRatings(db: DB, packageName: string) {
  const [agg, last] = await Promise.all([
    db
      .selectFrom("parent_ratings")
      .select((eb) => [
        eb.fn.countAll<number>().as("total"),
        eb.fn.avg<number>("is_educational").as("educational"),
        eb.fn.avg<number>("is_positive").as("positive"),
        eb.fn.avg<number>("is_suitable_content").as("suitable"),
        eb.fn.avg<number>("is_easy_to_understand").as("easy"),
        eb.fn.sum<number>("is_recommend").as("up"),
      ])
      .where("package_name", "=", packageName)
      .executeTakeFirst(),
    db
      .selectFrom("parent_ratings as r")
      .innerJoin("parents as p", "p.id", "r.parent_id")
      .innerJoin("kid_profiles as k", "k.id", "r.profile_id")
      .select([
        "r.id",
        "r.is_educational",
        "r.is_positive",
        "r.is_suitable_content",
        "r.is_easy_to_understand",
        "r.is_recommend",
        "r.review",
        "r.updated_at",
        "p.name",
        "k.name as kidName",
      ])
      .where("r.package_name", "=", packageName)
      .orderBy("r.updated_at", "desc")
      .orderBy("r.id")
      .limit(5)
      .execute(),
  ]);
  const total = Number(agg?.total ?? 0);
  const parts = [agg?.educational, agg?.positive, agg?.suitable, agg?.easy].map((v) => (total ? Number(v ?? 0) : 0));
  const up = Number(agg?.up ?? 0);
  return {
    parentsRatingAvg: total ? avg1(parts.reduce((a, b) => a + b, 0) / 4) : null,
    totalParentsRating: total,
    educational: avg1(parts[0]) ?? 0,
    positive: avg1(parts[1]) ?? 0,
    suitableContent: avg1(parts[2]) ?? 0,
    easyToUnderstand: avg1(parts[3]) ?? 0,
    upVoting: up,
    downVoting: total - up,
    lastFiveReviews: last.map((r) => ({
      id: r.id,
      isEducational: r.is_educational,
      isPositive: r.is_positive,
      isSuitableContent: r.is_suitable_content,
      isEasyToUnderstand: r.is_easy_to_understand,
      isRecommend: r.is_recommend === 1,
      name: r.name,
      kidName: r.kidName,
      review: r.review,
      updated_at: r.updated_at,
    })),
  };
}

/** Whether the parent recommends an app, on each of their ratings of it (one per kid): how many ratings changed. */
export async function setParentRecommendation(db: DB, parentId: string, packageName: string, isRecommend: boolean): Promise<number> {
  const r = await db
    .updateTable("parent_ratings")
    .set({ is_recommend: isRecommend ? 1 : 0, updated_at: nowIso() })
    .where("parent_id", "=", parentId)
    .where("package_name", "=", packageName)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
