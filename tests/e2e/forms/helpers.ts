import { expect, type Locator, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { e2eQuery } from "../support/db";
import { E2E_DATA_DIR } from "../support/server";

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

export async function solveCaptcha(
  page: Page,
  javaScriptEnabled: boolean,
  scope = page.locator("main"),
): Promise<void> {
  if (javaScriptEnabled) {
    await spamCheckShown(scope);
    const token = scope.locator('input[name="recaptcha_token"]');
    // It solves itself once the visitor has started the form (ALTCHA's auto "onfocus", issue 38):
    // a visitor who has not is moved into it, as a tab to its checkbox would; one whose check
    // failed (a refused challenge) ticks it again. Never clicked when started: that would untick it.
    if (!(await token.inputValue())) {
      const state = await scope.locator("altcha-widget [data-state]").first().getAttribute("data-state");
      if (state === "unverified") await scope.locator("altcha-widget input[type=checkbox]").focus();
      else if (state === "error" || state === "expired") await scope.locator("altcha-widget label").first().click();
    }
    await expect(token).toHaveValue(/.{20,}/, { timeout: 20_000 });
  } else {
    const label = scope.locator("label", { hasText: /What is \d \+ \d\?/ });
    const [, a, b] = /What is (\d) \+ (\d)\?/.exec(await label.innerText())!;
    await scope.locator('input[name="captcha_answer"]').fill(String(Number(a) + Number(b)));
  }
}

/**
 * The ALTCHA widget of the form in `scope`, shown: it loads when the visitor comes near it or first
 * touches the form (app/forms/captcha/Captcha.tsx), so this scrolls to its slot, as a visitor
 * would, and waits for its checkbox (named "I'm not a robot", then "Verifying…" and "Verified" as
 * it solves itself). It exists only once React has hydrated the form.
 */
export async function spamCheckShown(scope: Page | Locator): Promise<void> {
  await scope.locator(".form-captcha").first().scrollIntoViewIfNeeded();
  await expect(scope.locator("altcha-widget input[type=checkbox]").first()).toBeVisible({ timeout: 15_000 });
}

/** With JavaScript, wait until hydration so the enhanced form (fetcher, widget) is live. */
export async function open(page: Page, path: string, javaScriptEnabled: boolean): Promise<void> {
  await page.goto(path);
  if (javaScriptEnabled) await spamCheckShown(page);
}

export function statusMessage(page: Page) {
  return page.locator(".form-status .form-message");
}

export async function dbRows<T extends Record<string, unknown>>(
  query: string,
  ...params: (string | number)[]
): Promise<T[]> {
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

/** Today's date in Detroit (the company's calendar: DECISIONS 14), whatever the test machine's zone. */
export function todayInDetroit(): string {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone: "America/Detroit",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date());
}

/** The date `days` after a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday, of a calendar date. */
export function weekday(date: string): number {
  return new Date(`${date}T12:00:00Z`).getUTCDay();
}

const serviceHolidays = ["01-01", "07-04", "12-25"];

/**
 * The `index`-th Saturday from three weeks ahead on, holidays (priced as
 * such) skipped: a residential booking test takes a Saturday of its own, so
 * tests running in parallel never fill each other's slots (3 places each).
 * Index 9 is still about 13 weeks ahead, inside the 120-day booking horizon.
 */
export function serviceSaturday(index: number): string {
  let day = addDays(todayInDetroit(), 21);
  while (weekday(day) !== 6) day = addDays(day, 1);
  for (let found = 0; ; day = addDays(day, 7)) {
    if (serviceHolidays.includes(day.slice(5))) continue;
    if (found++ === index) return day;
  }
}

/** "Saturday, December 19": how the booking calendar and its slot list name a day. */
export function serviceDayName(date: string): string {
  return new Intl.DateTimeFormat("en-US", { timeZone: "UTC", weekday: "long", month: "long", day: "numeric" }).format(
    new Date(`${date}T12:00:00Z`),
  );
}

/**
 * A day's button on the residential booking calendar (JavaScript on), after
 * going forward month by month to it as a visitor would. Each day's button is
 * named by the day and what it says under it ("Saturday, December 19, $159.00").
 */
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

export async function serviceDayButton(page: Page, date: string): Promise<Locator> {
  const calendar = page.getByRole("group", { name: "Service Date" });
  const day = calendar.getByRole("button", {
    name: new RegExp(`^${serviceDayName(date)},`),
  });
  // The calendar opens on a month of its own (today's, or a booked visit's on the move page): step
  // towards the day's month, once the calendar has drawn.
  await calendar.getByRole("button", { name: "Next month" }).waitFor();
  const target = Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
  for (let step = 0; step < 12 && !(await day.isVisible()); step++) {
    const shown =
      /(January|February|March|April|May|June|July|August|September|October|November|December) (\d{4})/.exec(
        (await calendar.textContent()) ?? "",
      );
    const at = shown ? Number(shown[2]) * 12 + MONTHS.indexOf(shown[1]!) : -Infinity;
    await calendar.getByRole("button", { name: at > target ? "Previous month" : "Next month" }).click();
  }
  return day;
}

/** Chooses a day on the residential booking calendar (see serviceDayButton). */
export async function pickServiceDay(page: Page, date: string): Promise<Locator> {
  const day = await serviceDayButton(page, date);
  await day.click();
  return day;
}

/**
 * The e-mail the server wrote for `to` (MAIL_TRANSPORT=files: DATA_DIR/mail,
 * each attachment beside its .eml as `<name of the .eml>-<attachment>`), once
 * the outbox has sent it; its path without the extension, and its text.
 */
export async function mailTo(to: string): Promise<{ base: string; eml: string }> {
  const folder = path.resolve(E2E_DATA_DIR, "mail");
  const recipient = new RegExp(`^To: .*${to.replace(/[.+]/g, "\\$&")}`, "m");
  let found: { base: string; eml: string } | undefined;
  await expect
    .poll(
      () => {
        const names = existsSync(folder) ? readdirSync(folder).filter((n) => n.endsWith(".eml")) : [];
        for (const name of names) {
          const eml = readFileSync(path.join(folder, name), "utf8");
          if (recipient.test(eml))
            found = {
              base: path.join(folder, name.slice(0, -".eml".length)),
              eml,
            };
        }
        return found !== undefined;
      },
      { message: `an e-mail to ${to} in ${folder}`, timeout: 30_000 },
    )
    .toBe(true);
  return found!;
}

/** The instant `hour` o'clock begins on a calendar date in Detroit (EST or EDT, whichever that day has). */
export function detroitHour(date: string, hour: number): Date {
  const inDetroit = new Intl.DateTimeFormat("en-US", {
    timeZone: "America/Detroit",
    hour: "numeric",
    hourCycle: "h23",
  });
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return [4, 5]
    .map((offset) => new Date(Date.UTC(y, m - 1, d, hour + offset)))
    .find((t) => Number(inDetroit.format(t)) === hour)!;
}

/** One leaf part of a MIME message: its headers (unfolded) and its body, decoded. */
export type MimePart = { headers: string; body: string };

/**
 * The leaf parts of an .eml, multipart bodies opened (what a mail client lists as the text, the
 * HTML and the attachments), each body decoded from base64 or quoted-printable.
 */
export function mimeParts(raw: string): MimePart[] {
  const open = (part: string): MimePart[] => {
    const at = part.indexOf("\n\n");
    const headers = (at < 0 ? part : part.slice(0, at)).replace(/\n[ \t]+/g, " ");
    const body = at < 0 ? "" : part.slice(at + 2);
    const boundary = /^Content-Type: multipart\/[^\n]*boundary="?([^";\n]+)"?/im.exec(headers)?.[1];
    if (boundary)
      return body
        .split(`--${boundary}`)
        .slice(1, -1)
        .flatMap((p) => open(p.replace(/^\n/, "")));
    const encoding = /^Content-Transfer-Encoding: (\S+)/im.exec(headers)?.[1]?.toLowerCase();
    const decoded =
      encoding === "base64"
        ? Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")
        : encoding === "quoted-printable"
          ? quotedPrintable(body)
          : body;
    return [{ headers, body: decoded }];
  };
  return open(raw.replace(/\r\n/g, "\n"));
}

/** A quoted-printable body as text: soft line breaks joined, =XX bytes read as UTF-8. */
function quotedPrintable(body: string): string {
  const bytes: number[] = [];
  const text = body.replace(/=\n/g, "");
  for (let i = 0; i < text.length; i++) {
    const hex = text[i] === "=" ? /^[0-9A-F]{2}/.exec(text.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i]!, "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}

/** The calendar invitation a mail carries (its text/calendar part, decoded), or "" without one. */
export function calendarOf(eml: string): string {
  return mimeParts(eml).find((p) => /^Content-Type: text\/calendar/im.test(p.headers))?.body ?? "";
}
