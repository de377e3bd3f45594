import { CARD_ENTRY_LABELS } from "../../app/forms/card-schema";
import { TEST_CARDS, TEST_CVCS } from "../e2e/support/cards";
import { describe, until, type Driver, type Target } from "./driver";

/** What a flow is given besides its driver. */
export type FlowContext = {
  /** 0 for Firefox, 1 for WebKit: each engine books its own days, so the two never share a slot. */
  index: number;
  /** New in every run and engine: the visitor's e-mail and invoice number carry it. */
  tag: string;
  /** A screenshot of the view (with `target` scrolled to the top), kept as `<engine>/<name>.png`. */
  shot(name: string, target?: Target): Promise<void>;
};

/** One flow, written once against the driver-neutral layer; run in each engine. */
export type Flow = { name: string; run(d: Driver, ctx: FlowContext): Promise<void> };

/** Waits until the element's rendered text contains `expected` (or matches it); its text. */
export async function see(d: Driver, target: Target, expected: string | RegExp, timeout = 15_000): Promise<string> {
  let last = "";
  return until(
    `${describe(target)} to show ${String(expected)}`,
    async () => {
      last = (await d.text(target)).replace(/\s+/g, " ").trim();
      const ok = typeof expected === "string" ? last.includes(expected) : expected.test(last);
      if (!ok) throw new Error(`it shows "${last.slice(0, 300)}"`);
      return last;
    },
    timeout,
  );
}

/** Waits until the field's value is `expected`. */
export async function seeValue(d: Driver, target: Target, expected: string): Promise<void> {
  await until(`${describe(target)} to hold "${expected}"`, async () => {
    const value = await d.attr(target, "value");
    if (value !== expected) throw new Error(`it holds "${value}"`);
    return true;
  });
}

/** Waits until the page's address matches. */
export async function seeUrl(d: Driver, pattern: RegExp): Promise<string> {
  return until(`the address to match ${pattern}`, async () => {
    const url = await d.url();
    if (!pattern.test(url)) throw new Error(`it is ${url}`);
    return url;
  });
}

/** Whether the element shows up within `timeout` ms. */
export async function shows(d: Driver, target: Target, timeout = 1500): Promise<boolean> {
  try {
    await d.waitFor(target, { timeout });
    return true;
  } catch {
    return false;
  }
}

export function fail(message: string): never {
  throw new Error(message);
}

/** The `index`-th day from three weeks ahead on that falls on `weekday` (0 = Sunday), holidays skipped. */
export function dayAhead(weekday: number, weeksLater = 0): string {
  const detroit = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Detroit" }).format(new Date());
  const day = new Date(`${detroit}T12:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 21 + weeksLater * 7);
  while (day.getUTCDay() !== weekday || ["01-01", "07-04", "12-25"].includes(day.toISOString().slice(5, 10)))
    day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

/** "Tuesday, December 15": how the calendar names a day (its buttons' names start so). */
export function calendarDay(date: string): string {
  return new Intl.DateTimeFormat("en-US", { timeZone: "UTC", weekday: "long", month: "long", day: "numeric" }).format(
    new Date(`${date}T12:00:00Z`),
  );
}

/** Chooses a day on the booking calendar, going forward month by month to it as a visitor does. */
export async function pickDay(d: Driver, within: string, date: string): Promise<void> {
  const day: Target = { within, css: `button[aria-label^="${calendarDay(date)},"]` };
  const next: Target = { within, css: 'button[aria-label="Next month"]' };
  await d.waitFor(next);
  // The month shown first is looked at once; each next one is given a moment to be drawn.
  for (let month = 0; month < 6 && !(await shows(d, day, month === 0 ? 0 : 1500)); month++) await d.click(next);
  await d.click(day);
  await until(`${calendarDay(date)} to be chosen`, async () =>
    (await d.attr(day, "data-selected")) === "true" ? true : undefined,
  );
}

/**
 * The spam check of the form in `within`, ticked as a visitor ticks it (its label), unless it has
 * passed on its own already; then its proof of work, done by the browser, fills the token.
 */
export async function passSpamCheck(d: Driver, within: string): Promise<void> {
  const token: Target = { within, css: 'input[name="recaptcha_token"]' };
  const passed = async () => ((await d.attr(token, "value"))?.length ?? 0) >= 20;
  await d.waitFor({ within, css: "altcha-widget" }, { timeout: 20_000 });
  if (!(await passed().catch(() => false)))
    await d.click({ within, css: "altcha-widget label", text: "I'm not a robot" });
  await until("the spam check to pass", async () => ((await passed()) ? true : undefined), 30_000);
}

/** The card entry of a paid form (the same on each: app/forms/ui/card-fields.tsx), typed key by key; 4242… approves. */
export async function enterCard(d: Driver, within: string, holder: string | null): Promise<void> {
  if (holder !== null) await d.fill({ within, label: CARD_ENTRY_LABELS.holder }, holder);
  await d.fill({ within, label: CARD_ENTRY_LABELS.number }, TEST_CARDS.approve.replace(/\D/g, ""));
  await seeValue(d, { within, label: CARD_ENTRY_LABELS.number }, TEST_CARDS.approve);
  await d.fill({ within, label: CARD_ENTRY_LABELS.expiry }, "0430");
  await seeValue(d, { within, label: CARD_ENTRY_LABELS.expiry }, "04/30");
  await d.fill({ within, label: CARD_ENTRY_LABELS.cvc }, TEST_CVCS.three);
}
