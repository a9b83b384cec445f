import { randomBytes } from "node:crypto";
import type { SimulatedPhone } from "./phone";

/**
 * The kid rates an app in the kids app (spec 2 §3 Kids rating): a `kid_rating` frame with 1–5 stars and an optional
 * review. Resolves with the message id once the server has stored it; re-sending the same id (after a drop) is
 * applied once, and a later rating of the same app replaces the kid's earlier one.
 */
export async function rateApp(
  phone: SimulatedPhone,
  packageName: string,
  stars: number,
  opts: { review?: string; id?: string } = {},
): Promise<string> {
  const id = opts.id ?? `${phone.serialNumber}-rate-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}`;
  await phone.send("kid_rating", { packageName, rating: stars, ...(opts.review ? { review: opts.review } : {}) }, id);
  return id;
}
