// `npm start`: install when needed, build when needed, then run the server (it migrates, seeds and prints the URL).
import { spawn } from "node:child_process";
import { ensureBuild, ensureDependencies } from "./ensure.mjs";

ensureDependencies();
ensureBuild();
const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], { stdio: "inherit", env: { NODE_ENV: "production", ...process.env } });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
