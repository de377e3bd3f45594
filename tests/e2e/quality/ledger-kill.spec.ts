import { expect, test } from "../support/test";
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { MOVE_FORM_ID } from "../../../app/booking/move-form";
import { formatUsd } from "../../../app/payments/money";
import { TEST_CARDS, TEST_CVCS } from "../support/cards";
import {
  hiddenValue,
  holdReconcilerLease,
  type Lease,
  killWhileBlocked,
  openLedgerRows,
  openRowsInGrace,
  paymentsAudit,
} from "../support/ledger-drill";
import { startOwnServer, type OwnServer } from "../support/own-server";
import { startPrivatePostgres, type PrivatePostgres } from "../support/private-postgres";
import { addDays, todayInDetroit, weekday } from "../forms/helpers";
import { freshIp, noJsFieldsFromHtml } from "./form-support";

/**
 * Issue 36, "Must show": on PostgreSQL, the server is killed (SIGKILL) at each point between a
 * ledger row and its business commit — a booking, a move, a cancel and a checkout, each with its
 * request in flight and with its request answered — and after one restart and one reconciliation
 * every row is settled once: `npm run payments:audit` exits 0, the visitor's booking page says what
 * moved, and the company got one mail per interrupted change.
 *
 *   point                                 the server stopped at (a SHARE lock held elsewhere)
 *   1 booking: charge requested           the processor's insert (sandbox_transactions)
 *   2 booking: charge succeeded           the booking's insert (service_requests)
 *   3 move (dearer): charge requested     the processor's insert
 *   4 move: charge succeeded              the move's history line (booking_events)
 *   5 cancel: void requested              the processor's insert
 *   6 cancel: void succeeded              the change's mails (outbox)
 *   7 checkout: charge requested          the processor's insert
 *   8 checkout: charge succeeded          the order's insert (orders)
 *
 * One server per point, each killed while it waits (its statement waiting on the lock is ended
 * with it: a request in flight never reached the processor); meanwhile the reconciler's lease is held as
 * another instance would hold it, so no intermediate round settles anything (or stalls on a
 * drill's lock). Then the lease goes, the rows outlive the reconciler's grace
 * (PAYMENT_TIMEOUT_MS + 10 s), and one last server starts: its reconciliation at start settles all.
 *
 * On a fresh database of the suite's server when it has one (E2E_DATABASE_URL, CI), dropped
 * afterwards; otherwise a private cluster (support/private-postgres.ts).
 */
test.describe.configure({ mode: "serial" });

const PAYMENT_TIMEOUT_MS = 2_000;
const GRACE_MS = PAYMENT_TIMEOUT_MS + 10_000;
const COMPANY_INBOX = "office.ledger-kill@example.com";
const MORNING = "Morning (8 AM to 11 AM)";
const CARD = "Visa ending in 4242";
const HOLIDAYS = ["01-01", "07-04", "12-25"];

let pg: PrivatePostgres | undefined;
let admin: postgres.Sql | undefined;
let database: string | undefined;
let dbUrl = "";
let sql: postgres.Sql | undefined;
const servers: OwnServer[] = [];
let lease: Lease | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const shared = process.env.E2E_DATABASE_URL;
  if (shared) {
    database = `ledger_kill_${Date.now().toString(36)}_${randomBytes(2).toString("hex")}`;
    admin = postgres(shared, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${database}"`);
    const url = new URL(shared);
    url.pathname = `/${database}`;
    dbUrl = url.toString();
  } else {
    pg = await startPrivatePostgres();
    dbUrl = pg.url;
  }
  sql = postgres(dbUrl, { max: 1, onnotice: () => {} });
});

test.afterAll(async () => {
  lease?.stop();
  for (const s of servers) await s.stop();
  await sql?.end({ timeout: 2 });
  if (admin && database) {
    await admin.unsafe(`drop database if exists "${database}" with (force)`);
    await admin.end({ timeout: 2 });
  }
  await pg?.destroy();
});

const startServer = async () => {
  const server = await startOwnServer({
    env: () => ({
      DATABASE_URL: dbUrl,
      PAYMENT_GATEWAY: "sandbox",
      PAYMENT_TIMEOUT_MS: String(PAYMENT_TIMEOUT_MS),
      COMPANY_INBOX,
      LOG_LEVEL: "warn",
    }),
  });
  servers.push(server);
  return server;
};

/** Weekdays from three days ahead on (the change cut-off is 24 h), holidays skipped; and Sundays. */
function visitDays() {
  const weekdays: string[] = [];
  const sundays: string[] = [];
  for (let day = addDays(todayInDetroit(), 3); weekdays.length < 6 || sundays.length < 2; day = addDays(day, 1)) {
    if (HOLIDAYS.includes(day.slice(5))) continue;
    const w = weekday(day);
    if (w === 0) sundays.push(day);
    else if (w !== 6) weekdays.push(day);
  }
  return { weekdays, sundays };
}

const visitor = (label: string) => {
  const tag = randomBytes(4).toString("hex");
  return { name: "Katherine Johnson", email: `kill.${label}.${tag}@example.com` };
};

const headers = (url: string, extra: Record<string, string> = {}) => ({
  Origin: url,
  "Fly-Client-IP": freshIp(),
  ...extra,
});

/** The residential booking form as rendered (its submission key), filled and ready to post (multipart, as a browser). */
async function bookingForm(url: string, who: { name: string; email: string }, serviceDate: string) {
  const rendered = noJsFieldsFromHtml(await (await fetch(`${url}/request-service?type=residential`)).text(), {
    visible: true,
  });
  const key = rendered.submission_key!;
  expect(key).toMatch(/^[\w-]{16,64}$/);
  const fields: Record<string, string> = {
    ...rendered,
    name: who.name,
    phone: "(810) 555-0142",
    email: who.email,
    address1: "12 Saginaw St",
    address2: "",
    city: "Flint",
    state: "MI",
    zip: "48502",
    country: "United States",
    serviceDate,
    serviceTime: MORNING,
    contactMethod: "Email",
    description: "",
    cardHolder: who.name,
    cardNumber: TEST_CARDS.approve,
    cardExpMonth: "04/30",
    cardExpYear: "",
    cardCVC: TEST_CVCS.three,
  };
  const send = (to: string) => {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    return fetch(`${to}/request-service?type=residential`, {
      method: "POST",
      headers: headers(to),
      body,
      redirect: "manual",
    });
  };
  return { key, paymentKey: `service-residential:${key}`, send };
}

type Booking = { id: number; token: string; reference: string; serviceDate: string; email: string };

/** A booking made and paid the ordinary way ($129.95, a weekday morning): what the changes act on. */
async function book(url: string, serviceDate: string): Promise<Booking> {
  const who = visitor("booked");
  const form = await bookingForm(url, who, serviceDate);
  const res = await form.send(url);
  expect(res.status, (await res.text()).slice(0, 500)).toBe(303);
  const token = /^\/booking\/([\w-]+)\?booked/.exec(res.headers.get("location") ?? "")?.[1];
  expect(token, res.headers.get("location") ?? "no Location").toBeTruthy();
  const [row] = await sql!<{ id: number; reference: string; total_cents: number; payment_status: string }[]>`
    select id, reference, total_cents, payment_status from service_requests where email = ${who.email}`;
  expect(row).toMatchObject({ total_cents: 12_995, payment_status: "paid" });
  return { id: row!.id, token: token!, reference: row!.reference, serviceDate, email: who.email };
}

/** The move form of the booking's page (/booking/{token}?move), posted without JavaScript to a dearer Sunday. */
async function moveForm(url: string, booking: Booking, sunday: string) {
  const res = await fetch(`${url}/booking/${booking.token}?move`);
  expect(res.status).toBe(200);
  const html = await res.text();
  const submissionKey = hiddenValue(html, "submission_key");
  const currentVisit = hiddenValue(html, "currentVisit");
  expect(currentVisit).toBe(`${booking.serviceDate}|${MORNING}`);
  const body = new URLSearchParams({
    submission_key: submissionKey,
    currentVisit,
    serviceDate: sunday,
    serviceTime: MORNING,
    cardHolder: "Katherine Johnson",
    cardNumber: TEST_CARDS.approve,
    cardExpMonth: "04/30",
    cardExpYear: "",
    cardCVC: TEST_CVCS.three,
    intent: "move",
  });
  return {
    // A paid form's key, as the booking's and the checkout's: the form's id and the render's key.
    key: `${MOVE_FORM_ID}:${submissionKey}`,
    send: (to: string) =>
      fetch(`${to}/booking/${booking.token}?move`, {
        method: "POST",
        headers: headers(to, { "Content-Type": "application/x-www-form-urlencoded" }),
        body,
        redirect: "manual",
      }),
  };
}

const postCancel = (url: string, booking: Booking) =>
  fetch(`${url}/booking/${booking.token}`, {
    method: "POST",
    headers: headers(url, { "Content-Type": "application/x-www-form-urlencoded" }),
    body: new URLSearchParams({ intent: "cancel" }),
    redirect: "manual",
  });

/** A new cart with one product in it, and its checkout filled without JavaScript. */
async function checkoutForm(url: string, who: { name: string; email: string }) {
  const [product] = await sql!<{ id: number; price_cents: number }[]>`
    select id, price_cents from products where stock >= 5 and custom_fields = '[]'::jsonb order by id limit 1`;
  const added = await fetch(`${url}/api/store/cart/add`, {
    method: "POST",
    headers: headers(url, { "Content-Type": "application/json" }),
    body: JSON.stringify({ inventory_id: product!.id }),
  });
  expect(added.status, await added.text()).toBe(200);
  const cookie = added.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .find((c) => c.startsWith("cart="));
  expect(cookie).toBeTruthy();
  const rendered = noJsFieldsFromHtml(await (await fetch(`${url}/checkout`, { headers: { Cookie: cookie! } })).text(), {
    visible: true,
  });
  const key = rendered.submission_key!;
  const body = new URLSearchParams({
    ...rendered,
    name: who.name,
    email: who.email,
    phone: "(810) 555-0142",
    address: "12 Saginaw St",
    city: "Flint",
    state: "MI",
    zip: "48502",
    installSameAsBilling: "on",
    cardNumber: TEST_CARDS.approve,
    expiry: "04/30",
    cvv: TEST_CVCS.three,
  });
  return {
    paymentKey: `checkout:${key}`,
    amountCents: product!.price_cents,
    send: (to: string) =>
      fetch(`${to}/checkout`, {
        method: "POST",
        headers: headers(to, { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie! }),
        body,
        redirect: "manual",
      }),
  };
}

type LedgerRow = {
  id: number;
  kind: string;
  state: string;
  parent_id: number | null;
  amount_cents: number;
  resolved: boolean;
};

/** The rows whose key is `key` (or starts with it, with `like`), and every row acting on them. */
async function rowsOf(key: string, { like = false } = {}): Promise<LedgerRow[]> {
  const pattern = like ? `${key}%` : key;
  return [
    ...(await sql!<LedgerRow[]>`
      select id, kind, state, parent_id, amount_cents, resolved_at is not null as resolved from payments
       where idempotency_key like ${pattern}
          or parent_id in (select id from payments where idempotency_key like ${pattern} and kind = 'charge')
       order by id`),
  ];
}

/** The one row with this key, as the drill polls it (undefined until it is written). */
async function stateOf(key: string, { like = false } = {}) {
  const [row] = await sql!<{ kind: string; state: string }[]>`
    select kind, state from payments where idempotency_key like ${like ? `${key}%` : key} order by id limit 1`;
  return row ? `${row.kind} ${row.state}` : "none";
}

type Mail = { to: string; subject: string };

/** The company's mails about these ledger rows, or about this booking since `since`. */
async function companyMails({ rows, booking, since }: { rows: number[]; booking?: number; since?: Date }) {
  return [
    ...(await sql!<Mail[]>`
      select "to", subject from outbox
       where "to" = ${COMPANY_INBOX}
         and ((source_table = 'payments' and source_id = any(${`{${rows.join(",")}}`}::int[]))
              or (source_table = 'service_requests' and source_id = ${booking ?? -1} and created_at > ${since ?? new Date()}))
       order by id`),
  ];
}

async function mailsTo(email: string, since = new Date(0)) {
  return [
    ...(await sql!<
      Mail[]
    >`select "to", subject from outbox where "to" = ${email} and created_at > ${since} order by id`),
  ];
}

const dbNow = async () => (await sql!<{ now: Date }[]>`select now() as now`)[0]!.now;

/** A visitor's line of the booking page's "Your money" list (each begins with its time). */
const moneyLine = (text: string) => new RegExp(`: ${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test("kill -9 at each point between a ledger row and its business commit; one restart and one reconciliation settle every row once", async ({
  page,
}) => {
  test.setTimeout(600_000);
  const { weekdays, sundays } = visitDays();
  const drill = (
    server: OwnServer,
    table: string,
    send: () => Promise<Response>,
    atPoint: () => Promise<unknown>,
    expected: unknown,
  ) => killWhileBlocked(server, { dbUrl, sql: sql!, table, send, atPoint, expected });

  // The first server: the four bookings the move and cancel drills change, booked and paid as usual.
  let server = await startServer();
  const [toMoveUnanswered, toMoveUnstored, toCancelUnanswered, toCancelUnmailed] = [
    await book(server.url, weekdays[2]!),
    await book(server.url, weekdays[3]!),
    await book(server.url, weekdays[4]!),
    await book(server.url, weekdays[5]!),
  ];
  lease = await holdReconcilerLease(sql!);

  // 1. A booking whose charge is in flight: the processor's books are locked, the request waits there.
  const bookUnanswered = { who: visitor("book-unanswered") };
  const bookUnansweredForm = await bookingForm(server.url, bookUnanswered.who, weekdays[0]!);
  await test.step("1. booking: killed with its charge requested, the processor not answered", () =>
    drill(
      server,
      "sandbox_transactions",
      () => bookUnansweredForm.send(server.url),
      () => stateOf(bookUnansweredForm.paymentKey),
      "charge requested",
    ));

  // 2. A booking whose charge succeeded, its store waiting.
  server = await startServer();
  const bookUnstored = { who: visitor("book-unstored") };
  const bookUnstoredForm = await bookingForm(server.url, bookUnstored.who, weekdays[1]!);
  await test.step("2. booking: killed with its charge succeeded, the booking not stored", () =>
    drill(
      server,
      "service_requests",
      () => bookUnstoredForm.send(server.url),
      () => stateOf(bookUnstoredForm.paymentKey),
      "charge succeeded",
    ));

  // 3. A move to a dearer Sunday ($129.95 → $199.00: $69.05 more) whose charge is in flight.
  server = await startServer();
  const moveUnansweredSince = await dbNow();
  const moveUnanswered = await moveForm(server.url, toMoveUnanswered, sundays[0]!);
  await test.step("3. move: killed with the difference's charge requested, the processor not answered", () =>
    drill(
      server,
      "sandbox_transactions",
      () => moveUnanswered.send(server.url),
      () => stateOf(moveUnanswered.key),
      "charge requested",
    ));

  // 4. The same move whose charge succeeded, the move itself waiting.
  server = await startServer();
  const moveUnstoredSince = await dbNow();
  const moveUnstored = await moveForm(server.url, toMoveUnstored, sundays[1]!);
  await test.step("4. move: killed with the difference charged, the move not stored", () =>
    drill(
      server,
      "booking_events",
      () => moveUnstored.send(server.url),
      () => stateOf(moveUnstored.key),
      "charge succeeded",
    ));

  // 5. A cancel whose void is in flight (the booking cancelled, its void requested, in one commit).
  server = await startServer();
  const cancelUnansweredSince = await dbNow();
  const cancelUnansweredKey = `cancel:${toCancelUnanswered.id}:`;
  await test.step("5. cancel: killed with the void requested, the processor not answered", () =>
    drill(
      server,
      "sandbox_transactions",
      () => postCancel(server.url, toCancelUnanswered),
      () => stateOf(cancelUnansweredKey, { like: true }),
      "void requested",
    ));

  // 6. A cancel whose void succeeded, its mails waiting.
  server = await startServer();
  const cancelUnmailedSince = await dbNow();
  const cancelUnmailedKey = `cancel:${toCancelUnmailed.id}:`;
  await test.step("6. cancel: killed with the void succeeded, the mails not written", () =>
    drill(
      server,
      "outbox",
      () => postCancel(server.url, toCancelUnmailed),
      () => stateOf(cancelUnmailedKey, { like: true }),
      "void succeeded",
    ));

  // 7. A checkout whose charge is in flight.
  server = await startServer();
  const checkoutUnanswered = { who: visitor("checkout-unanswered") };
  const checkoutUnansweredForm = await checkoutForm(server.url, checkoutUnanswered.who);
  await test.step("7. checkout: killed with its charge requested, the processor not answered", () =>
    drill(
      server,
      "sandbox_transactions",
      () => checkoutUnansweredForm.send(server.url),
      () => stateOf(checkoutUnansweredForm.paymentKey),
      "charge requested",
    ));

  // 8. A checkout whose charge succeeded, the order waiting.
  server = await startServer();
  const checkoutUnstored = { who: visitor("checkout-unstored") };
  const checkoutUnstoredForm = await checkoutForm(server.url, checkoutUnstored.who);
  await test.step("8. checkout: killed with its charge succeeded, the order not stored", () =>
    drill(
      server,
      "orders",
      () => checkoutUnstoredForm.send(server.url),
      () => stateOf(checkoutUnstoredForm.paymentKey),
      "charge succeeded",
    ));

  // Every drill left its row open; the lease goes, the rows outlive the grace, one server starts.
  expect((await openLedgerRows(sql!)).map((r) => `${r.kind} ${r.state}`)).toEqual([
    "charge requested",
    "charge succeeded",
    "charge requested",
    "charge succeeded",
    "void requested",
    "void succeeded",
    "charge requested",
    "charge succeeded",
  ]);
  await lease.release();
  await expect.poll(() => openRowsInGrace(sql!, GRACE_MS), { timeout: GRACE_MS + 10_000, intervals: [500] }).toBe(0);
  const final = await startServer();
  const settledFrom = Date.now();
  await expect
    .poll(async () => (await openLedgerRows(sql!)).map((r) => `#${r.id} ${r.kind} ${r.state} ${r.key}`), {
      message: `every row settled by the reconciliation at start\n${final.output().slice(-2000)}`,
      timeout: 45_000,
      intervals: [250],
    })
    .toEqual([]);
  test
    .info()
    .annotations.push({ type: "settled in", description: `${Date.now() - settledFrom} ms after the last start` });

  await test.step("1. the booking's charge never reached the processor: declined, no booking, the company told once", async () => {
    const rows = await rowsOf(bookUnansweredForm.paymentKey);
    expect(rows).toEqual([
      expect.objectContaining({ kind: "charge", state: "declined", amount_cents: 12_995, resolved: true }),
    ]);
    expect(await sql!`select id from service_requests where email = ${bookUnanswered.who.email}`).toHaveLength(0);
    expect(await companyMails({ rows: rows.map((r) => r.id) })).toEqual([
      { to: COMPANY_INBOX, subject: `Payment #${rows[0]!.id} interrupted ($129.95): nothing was charged` },
    ]);
    expect(await mailsTo(bookUnanswered.who.email)).toEqual([]);
  });

  await test.step("2. the booking's charge is voided, no booking, the company told once", async () => {
    const rows = await rowsOf(bookUnstoredForm.paymentKey);
    const charge = rows[0]!;
    expect(rows).toEqual([
      expect.objectContaining({ kind: "charge", state: "succeeded", amount_cents: 12_995, resolved: true }),
      expect.objectContaining({
        kind: "void",
        state: "succeeded",
        amount_cents: 12_995,
        parent_id: charge.id,
        resolved: true,
      }),
    ]);
    expect(await sql!`select id from service_requests where email = ${bookUnstored.who.email}`).toHaveLength(0);
    expect(await companyMails({ rows: rows.map((r) => r.id) })).toEqual([
      { to: COMPANY_INBOX, subject: `Payment #${charge.id} voided ($129.95): its service booking was never stored` },
    ]);
    expect(await mailsTo(bookUnstored.who.email)).toEqual([]);
  });

  /** The booking as stored, and its page as the visitor reads it. */
  const bookingNow = async (b: Booking) => {
    const [row] = await sql!<
      { service_date: string; service_time: string; booking_status: string; total_cents: number }[]
    >`
      select service_date::text, service_time, booking_status, total_cents from service_requests where id = ${b.id}`;
    await page.goto(`${final.url}/booking/${b.token}`);
    return row;
  };
  const money = () => page.locator(".booking-money li");
  const paymentLine = () =>
    page.locator(".booking-facts dt", { hasText: "Payment" }).locator("xpath=following-sibling::dd[1]");

  await test.step("3. the move's charge never reached the processor: declined, the visit unchanged, the page and the company say so", async () => {
    const rows = await rowsOf(moveUnanswered.key);
    expect(rows).toEqual([
      expect.objectContaining({ kind: "charge", state: "declined", amount_cents: 69_05, resolved: true }),
    ]);
    expect(await bookingNow(toMoveUnanswered)).toEqual({
      service_date: toMoveUnanswered.serviceDate,
      service_time: MORNING,
      booking_status: "booked",
      total_cents: 12_995,
    });
    await expect(money()).toHaveText([moneyLine(`$129.95 charged to ${CARD}.`)]);
    await expect(paymentLine()).toHaveText(`$129.95 paid with ${CARD}.`);
    expect(
      await companyMails({ rows: rows.map((r) => r.id), booking: toMoveUnanswered.id, since: moveUnansweredSince }),
    ).toEqual([{ to: COMPANY_INBOX, subject: `Payment #${rows[0]!.id} interrupted ($69.05): nothing was charged` }]);
  });

  await test.step("4. the move's charge is voided, the visit unchanged, the page and the company say so", async () => {
    const rows = await rowsOf(moveUnstored.key, { like: false });
    const charge = rows[0]!;
    expect(rows).toEqual([
      expect.objectContaining({ kind: "charge", state: "succeeded", amount_cents: 69_05, resolved: true }),
      expect.objectContaining({
        kind: "void",
        state: "succeeded",
        amount_cents: 69_05,
        parent_id: charge.id,
        resolved: true,
      }),
    ]);
    expect(await bookingNow(toMoveUnstored)).toEqual({
      service_date: toMoveUnstored.serviceDate,
      service_time: MORNING,
      booking_status: "booked",
      total_cents: 12_995,
    });
    await expect(money()).toHaveText([
      moneyLine(`$129.95 charged to ${CARD}.`),
      moneyLine(`$69.05 charged to ${CARD}.`),
      moneyLine("The $69.05 charge was cancelled before it was taken (no money left your card)."),
    ]);
    await expect(paymentLine()).toHaveText(`$129.95 paid with ${CARD}.`);
    expect(
      await companyMails({ rows: rows.map((r) => r.id), booking: toMoveUnstored.id, since: moveUnstoredSince }),
    ).toEqual([
      // (Its words are an undone booking's; only the amount and what was done are checked here.)
      {
        to: COMPANY_INBOX,
        subject: expect.stringMatching(new RegExp(`^Payment #${charge.id} voided \\(\\$69\\.05\\): `)),
      },
    ]);
  });

  const cancelled = async (b: Booking, key: string, since: Date) => {
    const rows = await rowsOf(key, { like: true });
    expect(rows).toEqual([
      expect.objectContaining({ kind: "void", state: "succeeded", amount_cents: 12_995, resolved: true }),
    ]);
    expect((await bookingNow(b))?.booking_status).toBe("cancelled");
    await expect(money()).toHaveText([
      moneyLine(`$129.95 charged to ${CARD}.`),
      moneyLine("The $129.95 charge was cancelled before it was taken (no money left your card)."),
    ]);
    expect(await companyMails({ rows: rows.map((r) => r.id), booking: b.id, since })).toEqual([
      { to: COMPANY_INBOX, subject: expect.stringMatching(new RegExp(`^Booking ${escaped(b.reference)} cancelled: `)) },
    ]);
    expect(await mailsTo(b.email, since)).toEqual([
      { to: b.email, subject: expect.stringMatching(/^Your service visit on .+ is cancelled — /) },
    ]);
    // The visitor sends "Yes, cancel my visit" again (a reload of the post that never answered): told what moved.
    const again = await postCancel(final.url, b);
    const text = await again.text();
    expect(again.status, text.slice(0, 300)).toBe(200);
    expect(text).toContain(
      "Your booking is cancelled. The $129.95 charge was cancelled before it was taken (no money left your card).",
    );
  };
  await test.step("5. the cancel's void is sent, the booking cancelled, the visitor and the company mailed once", () =>
    cancelled(toCancelUnanswered, cancelUnansweredKey, cancelUnansweredSince));
  await test.step("6. the cancel's mails are written once", () =>
    cancelled(toCancelUnmailed, cancelUnmailedKey, cancelUnmailedSince));

  const noOrder = async (
    form: { paymentKey: string; amountCents: number },
    who: { email: string },
    outcome: "interrupted" | "voided",
  ) => {
    const rows = await rowsOf(form.paymentKey);
    const charge = rows[0]!;
    expect(rows).toEqual(
      outcome === "interrupted"
        ? [
            expect.objectContaining({
              kind: "charge",
              state: "declined",
              amount_cents: form.amountCents,
              resolved: true,
            }),
          ]
        : [
            expect.objectContaining({
              kind: "charge",
              state: "succeeded",
              amount_cents: form.amountCents,
              resolved: true,
            }),
            expect.objectContaining({
              kind: "void",
              state: "succeeded",
              amount_cents: form.amountCents,
              parent_id: charge.id,
              resolved: true,
            }),
          ],
    );
    expect(await sql!`select id from orders where email = ${who.email}`).toHaveLength(0);
    const amount = formatUsd(form.amountCents);
    expect(await companyMails({ rows: rows.map((r) => r.id) })).toEqual([
      {
        to: COMPANY_INBOX,
        subject:
          outcome === "interrupted"
            ? `Payment #${charge.id} interrupted (${amount}): nothing was charged`
            : `Payment #${charge.id} voided (${amount}): its shop order was never stored`,
      },
    ]);
    expect(await mailsTo(who.email)).toEqual([]);
  };
  await test.step("7. the checkout's charge never reached the processor: declined, no order, the company told once", () =>
    noOrder(checkoutUnansweredForm, checkoutUnanswered.who, "interrupted"));
  await test.step("8. the checkout's charge is voided, no order, the company told once", () =>
    noOrder(checkoutUnstoredForm, checkoutUnstored.who, "voided"));

  await test.step("npm run payments:audit: the ledger against the processor's books and every record against its ledger", async () => {
    const audit = await paymentsAudit(dbUrl);
    expect(audit.output).toContain("payments audit: 0 mismatches");
    expect(audit.code, audit.output).toBe(0);
  });
  expect(final.exit(), final.output().slice(-2000)).toBeNull();
});
