import { randomBytes } from "node:crypto";
import type { SimulatedPhone } from "./phone";

/** What the kid can ask for from the phone (the protocol's app_request requestType). */
export const REQUEST_KINDS = { install: "App Install", uninstall: "App Uninstall", extend: "Extend Time" } as const;
export type RequestKind = keyof typeof REQUEST_KINDS;

/** The parent's answer as the phone receives it (command APP_REQUEST_RESULT). */
export interface RequestAnswer {
  requestId: string;
  /** The message id of the phone's own app_request. */
  messageId: string | null;
  requestType: (typeof REQUEST_KINDS)[RequestKind];
  packageName: string;
  status: "Approved" | "Rejected";
  /** The app's standing daily limit (null: none). */
  dailyLimitMinutes: number | null;
  /** Today's limit with any extra minutes (null: none). */
  limitTodayMinutes: number | null;
  message: string;
}

/** A notification the kids app shows on the phone. */
export interface PhoneNotification {
  title: string;
  message: string;
  at: string;
}

/**
 * The kid's requests on the simulated phone (issue 14): asking (an app_request frame, retried with the same id
 * after a drop, so the server stores it once) and showing the parent's answer as a notification on the phone.
 */
export class PhoneRequests {
  readonly answers: RequestAnswer[] = [];
  readonly notifications: PhoneNotification[] = [];

  constructor(private readonly phone: SimulatedPhone) {}

  /** Sends the request; resolves with its message id once the server has stored it. */
  async ask(kind: RequestKind, packageName: string, opts: { minutes?: number; remarks?: string; id?: string } = {}): Promise<string> {
    const id = opts.id ?? `${this.phone.serialNumber}-req-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}`;
    const data = {
      requestType: REQUEST_KINDS[kind],
      packageName,
      extendedTime: kind === "extend" ? (opts.minutes ?? 30) : 0,
      ...(opts.remarks ? { remarks: opts.remarks } : {}),
    };
    await this.phone.send("app_request", data, id);
    return id;
  }

  /** An APP_REQUEST_RESULT command arrived: keep the answer, show the kid. */
  receive(payload: Record<string, unknown>): RequestAnswer {
    const answer = payload as unknown as RequestAnswer;
    this.answers.push(answer);
    this.notifications.push({
      title: answer.status === "Approved" ? "Request approved" : "Request rejected",
      message: String(answer.message ?? ""),
      at: new Date().toISOString(),
    });
    this.phone.emit("request-answer", answer);
    return answer;
  }

  /** Resolves with the answer to the request sent with this message id (already here or still to come). */
  waitForAnswer(messageId: string, timeoutMs = 5_000): Promise<RequestAnswer> {
    const have = this.answers.find((a) => a.messageId === messageId);
    if (have) return Promise.resolve(have);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => {
        this.phone.off("request-answer", on);
        reject(new Error(`no answer to request ${messageId} within ${timeoutMs} ms`));
      }, timeoutMs);
      const on = (a: RequestAnswer) => {
        if (a.messageId !== messageId) return;
        clearTimeout(t);
        this.phone.off("request-answer", on);
        resolve(a);
      };
      this.phone.on("request-answer", on);
    });
  }
}
