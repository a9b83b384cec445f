import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { addDays, dayParam, todayUtc } from "#core/days";
import { publicMessage } from "#device-service/errors";
import { FCM_ACTION_NAMES } from "#device-service/commands/types";
import { DEVICE_LOG_MAX_PAGE } from "#core/limits";
import { callDevice, hrefWith } from "~/components/dashboard/device.server";
import { requireKidDevice } from "~/components/dashboard/guard.server";
import { PageHead } from "~/components/dashboard/PageHead";
import { SubmitButton } from "~/components/forms";
import { DayNav } from "~/components/logs/DayNav";
import { PageNav } from "~/components/logs/PageNav";
import dashboardStyles from "../styles/dashboard.css?url";
import logsStyles from "../styles/logs.css?url";
import { formatDateTime } from "#core/format";
import { useIsSubmitting } from "~/utils/hooks";
import { useLiveRefresh } from "~/utils/live";
import { redirectWithToast } from "~/utils/toast.server";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: dashboardStyles },
  { rel: "stylesheet", href: logsStyles },
];
export const meta: MetaFunction = () => [{ title: "Device Logs · Kids Portal" }];

/** Without JavaScript, a page waiting for the phone reloads itself this often (seconds). */
export const WAITING_REFRESH_SECONDS = 5;

export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const { parent, device, kid } = await requireKidDevice(args, url.searchParams.get("profileId"), url.searchParams.get("serialNumber"));
  const day = dayParam(url.searchParams.get("currentDate"));
  const page = logsPageParam(url.searchParams.get("logsPage"));
  const { logs, commands, hasNextPage } = await args.context.services
    .device({ id: parent.id, email: parent.email, role: parent.role })
    .logs.list({ serialNumber: device.serial_number, currentDate: day, page });
  const today = todayUtc();
  const at = (d: string) => hrefWith(args.request, { currentDate: d === today ? null : d, logsPage: null });
  const onPage = (p: number) => `${hrefWith(args.request, { logsPage: p === 1 ? null : String(p) })}#fetch-title`;
  return json({
    kid: { id: kid.id, name: kid.name },
    day,
    prevHref: at(addDays(day, -1)),
    nextHref: day < today ? at(addDays(day, 1)) : null,
    page,
    newerHref: page > 1 ? onPage(page - 1) : null,
    olderHref: hasNextPage ? onPage(page + 1) : null,
    logs,
    commands,
    // A command still on its way: without JavaScript the page refreshes itself until the phone answers.
    waiting: commands.some((c) => c.status === "queued" || c.status === "sent"),
  });
}

/** `?logsPage=N`: the day's log cards, DEVICE_LOG_PAGE_SIZE a page, newest first; anything else is the first page. */
function logsPageParam(raw: string | null): number {
  const n = Number(raw);
  return /^\d{1,4}$/.test(raw ?? "") && n >= 1 && n <= DEVICE_LOG_MAX_PAGE ? n : 1;
}

const Intent = z.enum(["fetch", "send"]);
const Send = z.object({
  action: z.enum(FCM_ACTION_NAMES, { errorMap: () => ({ message: "Please choose an action." }) }),
  title: z.string().max(200, "The title can be at most 200 characters long."),
  message: z.string().max(1000, "The message can be at most 1,000 characters long."),
  packageName: z.string().trim().max(255, "The package name can be at most 255 characters long."),
});

export const SEND_FAILED = "Failed to send command.";

export async function action(args: ActionFunctionArgs) {
  const url = new URL(args.request.url);
  const { parent, device } = await requireKidDevice(args, url.searchParams.get("profileId"), url.searchParams.get("serialNumber"));
  const form = await args.request.formData();
  const intent = Intent.safeParse(form.get("intent"));
  if (!intent.success) throw new Response("Unknown action.", { status: 400 });
  const back = hrefWith(args.request, { currentDate: null, logsPage: null });
  const serialNumber = device.serial_number;
  if (intent.data === "fetch") return callDevice(args.context, parent, back, (d) => d.device.fetchLogs({ serialNumber }));
  const input = Send.safeParse({
    action: form.get("action"),
    title: form.get("title") ?? "",
    message: form.get("message") ?? "",
    packageName: form.get("packageName") ?? "",
  });
  if (!input.success) return redirectWithToast(back, { type: "error", message: `${SEND_FAILED} ${input.error.issues[0]!.message}` });
  try {
    const r = await args.context.services
      .device({ id: parent.id, email: parent.email, role: parent.role })
      .device.sendFcmCommand({ serialNumber, ...input.data });
    return redirectWithToast(back, { type: "success", message: r.respones_msg });
  } catch (err) {
    // Spec 2 §8: 'Failed to send command.', with the reason in plain words when there is one.
    if (err instanceof TRPCError && err.code !== "INTERNAL_SERVER_ERROR")
      return redirectWithToast(back, { type: "error", message: `${SEND_FAILED} ${publicMessage(err)}` });
    args.context.services.log("error", "send command failed", { error: err instanceof Error ? err.message : String(err) });
    return redirectWithToast(back, { type: "error", message: SEND_FAILED });
  }
}

const STATUS_LABEL: Record<string, string> = {
  queued: "Queued",
  sent: "Sent",
  acknowledged: "Acknowledged",
  failed: "Failed",
  expired: "Expired",
};

export default function DeviceLogs() {
  const data = useLoaderData<typeof loader>();
  useLiveRefresh(data.kid.id);
  const fetching = useIsSubmitting({ intent: "fetch" });
  const sending = useIsSubmitting({ intent: "send" });
  return (
    <div className="stack">
      {data.waiting && (
        <noscript>
          <meta httpEquiv="refresh" content={String(WAITING_REFRESH_SECONDS)} />
        </noscript>
      )}
      <PageHead title="Device Logs" kidName={data.kid.name} profileId={data.kid.id} />
      <section className="card stack" aria-labelledby="fetch-title">
        <h2 id="fetch-title">Logs</h2>
        <DayNav day={data.day} prevHref={data.prevHref} nextHref={data.nextHref} />
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="fetch" />
          <SubmitButton busy={fetching} className="btn btn-primary">
            Fetch Log
          </SubmitButton>
        </Form>
        {data.waiting && <p className="muted small">Waiting for {data.kid.name}&apos;s phone to answer…</p>}
        {data.logs.length === 0 ? (
          <p className="empty-state">No data found.</p>
        ) : (
          <ul className="log-cards" aria-label="Log cards">
            {data.logs.map((l) => (
              <li key={l.id} className="card log-card">
                <h3>{l.title ?? "Log"}</h3>
                <p className="muted small">
                  Created: <time dateTime={l.created_at}>{formatDateTime(l.created_at)}</time>
                </p>
                {l.entries.length > 0 && (
                  <dl>
                    {l.entries.map((e) => (
                      <div key={e.key} style={{ display: "contents" }}>
                        <dt>{e.key}</dt>
                        <dd>{e.value}</dd>
                      </div>
                    ))}
                  </dl>
                )}
                {l.lists.map((list) => (
                  <details key={list.key}>
                    <summary>
                      {list.key} ({list.items.length})
                    </summary>
                    <ul>
                      {list.items.map((item, i) => (
                        <li key={i}>{item}</li>
                      ))}
                    </ul>
                  </details>
                ))}
                {l.cut && <p className="muted small">This log is longer than a card shows; the rest is not shown.</p>}
              </li>
            ))}
          </ul>
        )}
        <PageNav
          page={data.page}
          newerHref={data.newerHref}
          olderHref={data.olderHref}
          label="Log pages"
          newer="Newer logs"
          older="Older logs"
        />
      </section>
      <section className="card stack" aria-labelledby="send-title">
        <h2 id="send-title">Send a command</h2>
        <Form method="post" className="logs-toolbar" preventScrollReset>
          <input type="hidden" name="intent" value="send" />
          <label>
            Title
            <input name="title" type="text" maxLength={200} />
          </label>
          <label>
            Message
            <input name="message" type="text" maxLength={1000} />
          </label>
          <label>
            Package name
            <input name="packageName" type="text" maxLength={255} placeholder="com.example.app" />
          </label>
          <label>
            Action
            <select name="action" required defaultValue="">
              <option value="" disabled>
                Choose an action
              </option>
              {FCM_ACTION_NAMES.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </select>
          </label>
          <SubmitButton busy={sending} className="btn btn-primary">
            Send
          </SubmitButton>
        </Form>
        <h3>Commands sent this day</h3>
        {data.commands.length === 0 ? (
          <p className="empty-state">No data found.</p>
        ) : (
          <ul className="command-list" aria-label="Commands">
            {data.commands.map((c) => (
              <li key={c.id} className="card">
                <strong>{c.action}</strong> <span className={`badge status-${c.status}`}>{STATUS_LABEL[c.status] ?? c.status}</span>
                {(c.title || c.message || c.packageName) && (
                  <p className="small">{[c.title, c.message, c.packageName].filter(Boolean).join(" · ")}</p>
                )}
                <p className="muted small">
                  Sent <time dateTime={c.created_at}>{formatDateTime(c.created_at)}</time>
                  {c.sentBy ? ` by ${c.sentBy}` : ""}
                  {c.error ? ` · ${c.error}` : ""}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
