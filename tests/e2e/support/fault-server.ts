import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./private-postgres";
import { e2eServerEnv } from "./server";

/**
 * The production build started the way Playwright's own server is
 * (scripts/e2e-server.mjs, the same node flags and entry), on a database of the
 * test's choosing, watched: the test can tell whether the process is still up.
 */
export type WatchedServer = {
  url: string;
  /** Exit code or signal once the process has ended, else null. */
  exit(): string | null;
  /** What the server printed (stdout and stderr), for failure messages. */
  output(): string;
  stop(): Promise<void>;
};

export async function startWatchedServer(env: Record<string, string>): Promise<WatchedServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "fault-server-"));
  const url = `http://localhost:${port}`;
  const child: ChildProcess = spawn(process.execPath, ["scripts/e2e-server.mjs"], {
    env: {
      ...process.env,
      ...e2eServerEnv(),
      PORT: String(port),
      SITE_URL: url,
      DATA_DIR: dataDir,
      DB_SOCKET_PORT: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (d: Buffer) => {
    output += d.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  let exit: string | null = null;
  const exited = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      exit = signal ?? String(code);
      resolve();
    }),
  );

  const stop = async () => {
    if (exit === null) {
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 90_000;
  for (;;) {
    const failed = (why: string) => stop().then(() => Promise.reject(new Error(`${why}:\n${output}`)));
    if (exit !== null) return failed(`the server exited (${exit}) before answering /healthz`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) return failed("the server did not answer /healthz within 90 s");
    await new Promise((r) => setTimeout(r, 250));
  }

  return {
    url,
    exit: () => exit,
    output: () => output,
    stop,
  };
}

function unescapeHtml(s: string) {
  return s.replaceAll("&quot;", '"').replaceAll("&#x27;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
}

/**
 * What a browser without JavaScript sends from the rendered form (the one that
 * asks "What is A + B?"): every named input as rendered (hidden challenge,
 * submission key, the honeypot's fields left as they are, the visitor's
 * fields as re-rendered), with the sum answered. The caller sets the
 * visitor's values on top. Works on a form page and on a failed submission's answer.
 */
export function noJsFieldsFromHtml(html: string): Record<string, string> {
  const text = html.replaceAll("<!-- -->", "");
  const form = [...text.matchAll(/<form\b[\s\S]*?<\/form>/g)].map((m) => m[0]).find((f) => /What is \d \+ \d\?/.test(f));
  if (!form) throw new Error(`no form with a captcha question in the page:\n${html.slice(0, 500)}`);
  const fields: Record<string, string> = {};
  for (const m of form.matchAll(/<input\b[^>]*>/g)) {
    const tag = m[0];
    const type = /\btype="([^"]*)"/.exec(tag)?.[1] ?? "text";
    if (["submit", "button", "image", "file", "checkbox", "radio"].includes(type)) continue;
    const name = /\bname="([^"]+)"/.exec(tag)?.[1];
    if (name) fields[name] = unescapeHtml(/\bvalue="([^"]*)"/.exec(tag)?.[1] ?? "");
  }
  const sum = /What is (\d) \+ (\d)\?/.exec(form)!;
  fields.captcha_answer = String(Number(sum[1]) + Number(sum[2]));
  return fields;
}
