import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { listLogFiles, serverLogDir } from "#core/log-files.server";
import { requireOperator } from "~/utils/auth.server";
import { formatDateTime } from "#core/format";
import logsStyles from "../styles/logs.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: logsStyles }];
export const meta: MetaFunction = () => [{ title: "Server Logs · Kids Portal" }];

/** Spec 2 /server-logs: the server's log files, linked at /kids/{file}. Operators only: a parent gets 403. */
export async function loader(args: LoaderFunctionArgs) {
  await requireOperator(args);
  const files = await listLogFiles(serverLogDir(args.context.services.env.DATA_DIR));
  return json({ files });
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export default function ServerLogs() {
  const { files } = useLoaderData<typeof loader>();
  return (
    <div className="stack">
      <h1>Server Logs</h1>
      <section className="card stack">
        {files.length === 0 ? (
          <p className="empty-state">No data found.</p>
        ) : (
          <ul className="file-list" aria-label="Log files">
            {files.map((f) => (
              <li key={f.name}>
                <a href={`/kids/${f.name}`} target="_blank" rel="noopener noreferrer">
                  {f.name}
                </a>{" "}
                <span className="muted small">
                  {size(f.size)} · updated {formatDateTime(f.modified)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
