import type { APIRequestContext } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { e2eServerEnv } from "../support/server";

/** A fresh client IP per request, so the per-IP rate limit does not hide what is being tested. */
export function freshIp(): string {
  const b = randomBytes(3);
  return `10.${100 + (b[0]! % 100)}.${b[1]}.${(b[2]! % 250) + 1}`;
}

function unescapeHtml(s: string) {
  return s
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}

/**
 * What a browser without JavaScript sends from the rendered form that asks
 * "What is A + B?", with the sum answered: its hidden inputs (signed
 * challenge, submission key) and the honeypot's fields as rendered; with
 * `visible`, every other named input too, as re-rendered (a failed
 * submission's answer keeps the visitor's values). The caller sets the
 * visitor's values on top.
 */
export function noJsFieldsFromHtml(html: string, { visible = false } = {}): Record<string, string> {
  const text = html.replaceAll("<!-- -->", "");
  const form = [...text.matchAll(/<form\b[\s\S]*?<\/form>/g)]
    .map((m) => m[0])
    .find((f) => /What is \d \+ \d\?/.test(f));
  if (!form) throw new Error(`no form with a captcha question in the page:\n${html.slice(0, 500)}`);
  const fields: Record<string, string> = {};
  for (const m of form.matchAll(/<input\b[^>]*>/g)) {
    const tag = m[0];
    const type = /\btype="([^"]*)"/.exec(tag)?.[1] ?? "text";
    const name = /\bname="([^"]+)"/.exec(tag)?.[1];
    if (!name || ["submit", "button", "image", "file", "checkbox", "radio"].includes(type)) continue;
    if (!visible && type !== "hidden" && name !== "name__confirm" && name !== "from__confirm") continue;
    fields[name] = unescapeHtml(/\bvalue="([^"]*)"/.exec(tag)?.[1] ?? "");
  }
  const sum = /What is (\d) \+ (\d)\?/.exec(form)!;
  fields.captcha_answer = String(Number(sum[1]) + Number(sum[2]));
  return fields;
}

/** The no-JS fields of a freshly rendered form page (see noJsFieldsFromHtml). */
export async function noJsFormFields(request: APIRequestContext, path: string): Promise<Record<string, string>> {
  return noJsFieldsFromHtml(await (await request.get(path)).text());
}

/**
 * Waits out the shared e2e server's minimum fill time (FORM_MIN_FILL_MS, the app's 2 s when unset)
 * counted from `renderedAt`: a no-JS form posted sooner is dropped like a bot's (answered as a
 * success). This wait is the rule being met, as a person filling the form meets it, not a guess at
 * how long something takes. The e2e server sets 0, so today it returns at once.
 */
export async function waitOutMinimumFillTime(renderedAt: number): Promise<void> {
  const minFillMs = Number(e2eServerEnv().FORM_MIN_FILL_MS ?? 2_000);
  if (minFillMs <= 0) return;
  const left = renderedAt + minFillMs + 100 - Date.now();
  if (left > 0) await new Promise((r) => setTimeout(r, left));
}
