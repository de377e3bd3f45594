import { expect, type Locator, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { e2eQuery } from "../support/db";

/**
 * Shared steps of the form specs. The captcha is solved for real: with
 * JavaScript the ALTCHA widget computes its proof of work in the browser;
 * without it the test reads "What is A + B?" from the page and answers it.
 */
export const modes = [
  { name: "JavaScript on", javaScriptEnabled: true },
  { name: "JavaScript off", javaScriptEnabled: false },
] as const;

/** Each test its own client IP (the rate limit is per IP) and its own e-mail address. */
export async function asNewVisitor(page: Page): Promise<{ ip: string; email: string; tag: string }> {
  const bytes = randomBytes(3);
  const ip = `10.${bytes[0]}.${bytes[1]}.${(bytes[2]! % 250) + 1}`;
  await page.setExtraHTTPHeaders({ "Fly-Client-IP": ip });
  const tag = randomBytes(4).toString("hex");
  return { ip, email: `visitor.${tag}@example.com`, tag };
}

export async function solveCaptcha(page: Page, javaScriptEnabled: boolean, scope = page.locator("main")): Promise<void> {
  if (javaScriptEnabled) {
    // The widget draws its own check mark over the native checkbox: click its label like a visitor.
    await scope.locator("altcha-widget label", { hasText: "I'm not a robot" }).click();
    await expect(scope.locator('input[name="recaptcha_token"]')).toHaveValue(/.{20,}/, { timeout: 20_000 });
  } else {
    const label = scope.locator("label", { hasText: /What is \d \+ \d\?/ });
    const [, a, b] = /What is (\d) \+ (\d)\?/.exec(await label.innerText())!;
    await scope.locator('input[name="captcha_answer"]').fill(String(Number(a) + Number(b)));
  }
}

/** With JavaScript, wait until hydration so the enhanced form (fetcher, widget) is live. */
export async function open(page: Page, path: string, javaScriptEnabled: boolean): Promise<void> {
  await page.goto(path);
  if (javaScriptEnabled) await expect(page.getByRole("checkbox", { name: "I'm not a robot" })).toBeVisible({ timeout: 15_000 });
}

export function statusMessage(page: Page) {
  return page.locator(".form-status .form-message");
}

export async function dbRows<T extends Record<string, unknown>>(query: string, ...params: (string | number)[]): Promise<T[]> {
  return e2eQuery<T>(query, params);
}

/** A tiny real PNG (1×1). */
export const PNG_1PX = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

export function photo(name: string) {
  return { name, mimeType: "image/png", buffer: PNG_1PX };
}

export type ContactValues = { first: string; last: string; email: string; phone: string; details: string };

/** Types a whole message into the contact form, field by field, as a visitor would. */
export async function fillContact(form: Locator, v: ContactValues): Promise<void> {
  await form.getByLabel("First Name").fill(v.first);
  await form.getByLabel("Last Name").fill(v.last);
  await form.getByLabel("Email").fill(v.email);
  await form.getByLabel("Phone").fill(v.phone);
  await form.getByLabel("How can we help you?").fill(v.details);
}
