import type { DB } from "../../index";
import { nowIso } from "../../../core/ids.server";

/** The parent's kids report frequency (global settings page). */

export async function setReportType(db: DB, parentId: string, type: "Off" | "Weekly" | "Monthly", now = new Date()): Promise<void> {
  await db
    .updateTable("parents")
    .set({ kids_report_type: type, updated_at: nowIso(now) })
    .where("id", "=", parentId)
    .execute();
}
