import { Form } from "@remix-run/react";
import { z } from "zod";
import { Modal } from "~/components/layout";
import { SubmitButton } from "~/components/forms";
import { useIsSubmitting } from "~/utils/hooks";
import { StarIcon } from "~/components/dashboard/icons";

const star = z.coerce.number().int().min(0).max(5).catch(0);

/** The rating form's fields as posted (no required fields, spec 2 §5: unanswered questions are 0 stars). */
export const ratingSchema = z.object({
  isEducational: star,
  isPositive: star,
  isSuitableContent: star,
  isEasyToUnderstand: star,
  isRecommend: z
    .string()
    .optional()
    .transform((v) => v === "on"),
  review: z
    .string()
    .max(1000)
    .optional()
    .transform((v) => v?.trim() || undefined),
});

export const RATING_QUESTIONS = [
  { name: "isEducational", label: "Educational" },
  { name: "isPositive", label: "Positive (creativity)" },
  { name: "isSuitableContent", label: "Suitable content" },
  { name: "isEasyToUnderstand", label: "Easy to understand" },
] as const;

/** The parent's rating popup (`?modal=rating`): four star questions, a recommendation and a review. */
export function RatingModal({ title, closeHref }: { title: string; closeHref: string }) {
  const busy = useIsSubmitting({ intent: "rating" });
  return (
    <Modal title={`Rate ${title}`} closeHref={closeHref} labelId="rating-title">
      <Form method="post" preventScrollReset className="stack">
        <input type="hidden" name="intent" value="rating" />
        {RATING_QUESTIONS.map((q) => (
          <fieldset className="stars" key={q.name}>
            <legend>{q.label}</legend>
            {[1, 2, 3, 4, 5].map((n) => (
              <label key={n} className="choice">
                <input type="radio" name={q.name} value={n} />
                <span>
                  {n} <StarIcon />
                  <span className="sr-only">{n === 1 ? "star" : "stars"}</span>
                </span>
              </label>
            ))}
          </fieldset>
        ))}
        <label className="choice">
          <input type="checkbox" name="isRecommend" /> I recommend this app
        </label>
        <div className="field">
          <label htmlFor="review">Review</label>
          <textarea id="review" name="review" rows={3} maxLength={1000} />
        </div>
        <div className="modal-actions">
          <SubmitButton busy={busy} className="btn">
            Submit rating
          </SubmitButton>
        </div>
      </Form>
    </Modal>
  );
}
