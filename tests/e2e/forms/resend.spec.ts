import { type Locator, type Page, type Request, type Response } from "@playwright/test";
import { expect, test } from "../support/test";
import postgres from "postgres";
import { startOwnServer, type OwnServer } from "../support/own-server";
import { startPrivatePostgres, type PrivatePostgres } from "../support/private-postgres";
import { noJsFieldsFromHtml } from "../quality/form-support";
import { asNewVisitor, fillContact } from "./helpers";

/**
 * A no-JS re-send right after a refusal is kept (issue 28 item 3). The minimum fill time
 * (FORM_MIN_FILL_MS, 2 s in production) drops a form posted sooner than that after it was
 * rendered, answering it as a success with nothing stored. A refused post's re-render carries
 * honeypot fields that answer that post (app/forms/actions.server.ts resendHoneypot), so the
 * visitor who corrects the sum, or presses Send again once the database is back, within 2 s
 * is kept. Before, every re-render carried a fresh timestamp: "Your message has been sent!" and
 * no row.
 *
 * Both cases on a server of this file's own with the production fill time, on a PostgreSQL
 * cluster of its own (the second case stops it; the shared e2e server has FORM_MIN_FILL_MS=0).
 * The re-sends are timed as the scenario says; a machine too loaded to send them within the fill
 * time cannot tell the old code from the new, and the test says so (an "inconclusive" annotation)
 * rather than failing.
 */
test.describe.configure({ mode: "serial" });
test.use({ javaScriptEnabled: false });

const MIN_FILL_MS = 2_000;
/** The scenario: the visitor fills the form and sends it a little after the fill time. */
const FIRST_SEND_AFTER_MS = 2_100;
/** The scenario: the re-send, 1 s after the refused (or failed) post's answer. */
const RESEND_AFTER_MS = 1_000;
const SENT = "Your message has been sent!";
const UNAVAILABLE = "We could not save your request just now.";

let pg: PrivatePostgres | undefined;
let server: OwnServer | undefined;
let sql: postgres.Sql | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  pg = await startPrivatePostgres();
  server = await startOwnServer({
    env: () => ({ DATABASE_URL: pg!.url, FORM_MIN_FILL_MS: String(MIN_FILL_MS), LOG_LEVEL: "warn" }),
  });
  sql = postgres(pg.url, { max: 1, onnotice: () => {} });
});

test.afterAll(async () => {
  await sql?.end({ timeout: 2 });
  await server?.stop();
  await pg?.destroy();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sleepUntil = (at: number) => sleep(Math.max(0, at - Date.now()));

const rowsOf = async (email: string) =>
  (await sql!<{ n: number }[]>`select count(*)::int as n from contact_submissions where email = ${email}`)[0]!.n;

/** The sum the no-JS form asks ("What is A + B?"): its right answer. */
async function sumAnswer(form: Locator): Promise<number> {
  const label = form.locator("label", { hasText: /What is \d \+ \d\?/ });
  const [, a, b] = /What is (\d) \+ (\d)\?/.exec(await label.innerText())!;
  return Number(a) + Number(b);
}

type Submitted = { response: Response; sentAt: number; at: number };

/**
 * Clicks Submit and waits for the answer's page: when the POST went out (`sentAt`) and when its
 * answer arrived (`at`: the answer's form, with its honeypot, was rendered just before), calling
 * `onAnswer` at once.
 */
async function submit(page: Page, form: Locator, onAnswer?: () => void): Promise<Submitted> {
  const isPost = (r: Request) => r.method() === "POST" && new URL(r.url()).pathname === "/contact";
  let sentAt = 0;
  const sent = page.waitForRequest(isPost).then(() => (sentAt = Date.now()));
  const answered = page.waitForResponse((r) => isPost(r.request()));
  await form.getByRole("button", { name: "Submit" }).click();
  const response = await answered;
  const at = Date.now();
  onAnswer?.();
  await sent;
  await page.waitForLoadState("load");
  return { response, sentAt, at };
}

/** Opens /contact and types a whole message; returns the form and when the page had loaded. */
async function openAndFill(page: Page, email: string) {
  await page.goto(`${server!.url}/contact`);
  const loadedAt = Date.now();
  const form = page.getByRole("form", { name: "Contact form" });
  await fillContact(form, {
    first: "Dorothy",
    last: "Vaughan",
    email,
    phone: "(810) 555-0149",
    details: "Re-sent right after a refusal.",
  });
  return { form, loadedAt };
}

/**
 * The rule under test is on: a fresh render posted at once, sum answered right, is dropped as a
 * bot's ("sent", nothing stored). Judged only when the render and the post together took less
 * than the fill time (a loaded machine may take longer: then tried again, and at worst noted).
 */
async function expectPostedAtOnceDropped(ip: string, tag: string): Promise<void> {
  const { url } = server!;
  for (let attempt = 0; attempt < 3; attempt++) {
    const email = `bot.${attempt}.${tag}@example.com`;
    const startedAt = Date.now();
    const fresh = await (await fetch(`${url}/contact`)).text();
    const bot = await fetch(`${url}/contact`, {
      method: "POST",
      headers: { Origin: url, "Content-Type": "application/x-www-form-urlencoded", "Fly-Client-IP": ip },
      body: new URLSearchParams({
        ...noJsFieldsFromHtml(fresh),
        first_name: "Fast",
        last_name: "Bot",
        email,
        phone: "(810) 555-0149",
        details: "Posted at once.",
      }),
    });
    const text = await bot.text();
    if (Date.now() - startedAt >= MIN_FILL_MS) continue;
    expect(text).toContain(SENT);
    expect(await rowsOf(email), "a post within the fill time is dropped").toBe(0);
    return;
  }
  inconclusive("render and post of the control took longer than the fill time three times");
}

/** A timing the scenario needs was not met on this machine: the test could not tell old from new. */
function inconclusive(why: string) {
  test.info().annotations.push({ type: "inconclusive", description: why });
}

/** How long after the render it came from the re-send went out: within the fill time, or the test proves nothing. */
function noteResendDelay(resentAt: number, renderedAt: number, of: string) {
  const ms = resentAt - renderedAt;
  test.info().annotations.push({ type: "re-sent", description: `${ms} ms after ${of}` });
  if (ms >= MIN_FILL_MS) inconclusive(`re-sent ${ms} ms after ${of}: not within the fill time`);
}

test("the sum answered wrong, then right 1 s later: the re-send is stored, not dropped by the 2 s fill time", async ({
  page,
}) => {
  const visitor = await asNewVisitor(page);
  await expectPostedAtOnceDropped(visitor.ip, visitor.tag);

  const { form, loadedAt } = await openAndFill(page, visitor.email);
  await sleepUntil(loadedAt + FIRST_SEND_AFTER_MS); // the scenario: the fill time waited out once
  await form.locator('input[name="captcha_answer"]').fill(String((await sumAnswer(form)) + 1));
  const refused = await submit(page, form);
  expect(refused.response.status()).toBe(400);
  await expect(page.getByText("Please complete the spam check.").first()).toBeVisible();
  await expect(form.getByLabel("First Name")).toHaveValue("Dorothy");

  await form.locator('input[name="captcha_answer"]').fill(String(await sumAnswer(form)));
  await sleepUntil(refused.at + RESEND_AFTER_MS); // the scenario: the sum corrected, sent a second later
  const sent = await submit(page, form);
  noteResendDelay(sent.sentAt, refused.at, "the refusal's render");
  expect(sent.response.status()).toBe(200);
  await expect(page.getByText(SENT).first()).toBeVisible();
  expect(await rowsOf(visitor.email), "the re-send is stored").toBe(1);
});

test("Send again 1 s after a 503 (the database stopped, then back): stored once", async ({ page }) => {
  test.setTimeout(90_000);
  // The database takes most of the second to come back; on a loaded machine it may take longer
  // than the fill time, and a re-send that late is kept by the old code too: then once more.
  for (let attempt = 1; attempt <= 3; attempt++) {
    const resentAfterMs = await resendAfterOutage(page);
    if (resentAfterMs < MIN_FILL_MS) return;
    if (attempt === 3) inconclusive(`re-sent ${resentAfterMs} ms after the 503's render three times`);
  }
});

/** One visitor's post during the outage and re-send after it; returns the ms from the 503 to the re-send. */
async function resendAfterOutage(page: Page): Promise<number> {
  const cluster = pg!;
  const visitor = await asNewVisitor(page);
  const { form, loadedAt } = await openAndFill(page, visitor.email);
  await sleepUntil(loadedAt + FIRST_SEND_AFTER_MS); // the scenario: the fill time waited out once
  await form.locator('input[name="captcha_answer"]').fill(String(await sumAnswer(form)));

  await cluster.stop();
  let back: Promise<void> | undefined;
  let failed: Submitted;
  try {
    // The database starts again as soon as the 503 has arrived, while the visitor reads it.
    failed = await submit(page, form, () => (back = cluster.start()));
    expect(failed.response.status()).toBe(503);
    await expect(page.getByText(UNAVAILABLE).first()).toBeVisible();
    await expect(form.getByLabel("First Name")).toHaveValue("Dorothy");
    await expect(form.getByLabel("Email")).toHaveValue(visitor.email);
    await form.locator('input[name="captcha_answer"]').fill(String(await sumAnswer(form)));
  } finally {
    await (back ?? cluster.start());
  }
  // The database is back for the server (its health check answers from it).
  await expect
    .poll(async () => (await fetch(`${server!.url}/healthz`)).status, { timeout: 10_000, intervals: [50] })
    .toBe(200);
  await sleepUntil(failed.at + RESEND_AFTER_MS); // the scenario: Send pressed again a second later
  const sent = await submit(page, form);
  const resentAfterMs = sent.sentAt - failed.at;
  test.info().annotations.push({ type: "re-sent", description: `${resentAfterMs} ms after the 503's render` });
  expect(sent.response.status()).toBe(200);
  await expect(page.getByText(SENT).first()).toBeVisible();
  expect(await rowsOf(visitor.email), "stored exactly once").toBe(1);
  return resentAfterMs;
}
