import type { APIRequestContext } from "@playwright/test";
import { randomBytes } from "node:crypto";

/** A fresh client IP per request, so the per-IP rate limit does not hide what is being tested. */
export function freshIp(): string {
  const b = randomBytes(3);
  return `10.${100 + (b[0]! % 100)}.${b[1]}.${(b[2]! % 250) + 1}`;
}

function unescapeHtml(s: string) {
  return s.replaceAll("&quot;", '"').replaceAll("&#x27;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
}

/**
 * What a visitor without JavaScript gets from a form page: the hidden fields
 * (signed challenge, honeypot) and the answer to "What is A + B?".
 */
export async function noJsFormFields(request: APIRequestContext, path: string): Promise<Record<string, string>> {
  const html = await (await request.get(path)).text();
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input[^>]*>/g)) {
    const tag = m[0];
    if (!/type="hidden"/.test(tag) && !/name="(name__confirm|from__confirm)"/.test(tag)) continue;
    const name = /name="([^"]+)"/.exec(tag)?.[1];
    if (name) fields[name] = unescapeHtml(/value="([^"]*)"/.exec(tag)?.[1] ?? "");
  }
  const sum = /What is (\d) \+ (\d)\?/.exec(html.replaceAll("<!-- -->", ""));
  if (!sum) throw new Error(`no captcha question on ${path}`);
  fields.captcha_answer = String(Number(sum[1]) + Number(sum[2]));
  return fields;
}
