import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, test } from "../support/test";
import { TEST_CARDS, TEST_CVCS } from "../support/cards";
import { closeE2eSql, e2eQuery } from "../support/db";
import { E2E_PORT } from "../support/server";
import { E2E_LOG_FILE } from "../audit/server-log";
import { asNewVisitor, solveCaptcha } from "../forms/helpers";

/**
 * Links stay secret (issue 38 item 8, DECISIONS 32): every answer under /booking/ and /order/, the
 * site's 404 for a wrong, malformed or cross-type token included, is `no-store`, `no-referrer` and
 * `noindex`, however it is asked for (a page, a data request, a post the route refuses, an address
 * the server refuses before the app); and the server's log, which the e2e server writes whole
 * (tests/e2e/audit/server-log.ts), holds none of the tokens asked for: paths are logged with the
 * token replaced. A real order's token (placed through the checkout without JavaScript) is the
 * cross-type one: it opens its order's page and nothing under /booking/.
 */
test.afterAll(closeE2eSql);
test.use({ javaScriptEnabled: false });

const ORIGIN = `http://localhost:${E2E_PORT}`;
const SECRET_HEADERS = { "cache-control": "no-store", "referrer-policy": "no-referrer", "x-robots-tag": "noindex" };
/** A well-formed token no link was ever made with (43 base64url characters). */
const madeUp = () => randomBytes(32).toString("base64url");

/** Places an order through the checkout page and returns its page's token (from the 303's address). */
async function placeOrder(page: import("@playwright/test").Page): Promise<string> {
  const visitor = await asNewVisitor(page);
  const [product] = await e2eQuery<{ id: number }>(
    "select id from products where stock >= 20 and custom_fields = '[]'::jsonb order by id limit 1",
  );
  await page.goto(`/product/${product!.id}`);
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page).toHaveURL(/\/my-cart$/);
  await page.goto("/checkout");
  const form = page.getByRole("form", { name: "Checkout form" });
  await form.getByLabel("Full Name").fill("Ada Lovelace");
  await form.getByLabel("Email").fill(visitor.email);
  await form.getByLabel("Phone").fill("(810) 555-0143");
  await form.getByRole("textbox", { name: "Address", exact: true }).fill("12 Saginaw St");
  await form.getByRole("textbox", { name: "City", exact: true }).fill("Flint");
  await form.getByRole("textbox", { name: "ZIP Code", exact: true }).fill("48502");
  await form.getByLabel("Card Number").fill(TEST_CARDS.approve);
  await form.getByLabel("Expiry (MM/YY)").fill("04/30");
  await form.getByRole("textbox", { name: "CVC", exact: true }).fill(TEST_CVCS.three);
  await solveCaptcha(page, false, form);
  await form.getByRole("button", { name: "Place Order" }).click();
  await expect(page).toHaveURL(/\/order\/[A-Za-z0-9_-]{43}\?placed/);
  return /\/order\/([A-Za-z0-9_-]{43})/.exec(page.url())![1]!;
}

test("every answer under /booking/ and /order/ is no-store, no-referrer and noindex; the log holds none of their tokens", async ({
  page,
  request,
}) => {
  test.slow();
  const orderToken = await placeOrder(page);
  const bad = [madeUp(), madeUp(), madeUp(), madeUp()];
  const asked: { what: string; path: string; method?: "POST"; status: number }[] = [
    { what: "a wrong booking token", path: `/booking/${bad[0]}`, status: 404 },
    { what: "a malformed booking token", path: "/booking/not-a-token%20at-all", status: 404 },
    { what: "a wrong order token", path: `/order/${bad[1]}`, status: 404 },
    { what: "a malformed order token", path: `/order/${bad[2]!.slice(0, 20)}!`, status: 404 },
    { what: "an order's token as a booking's (cross-type)", path: `/booking/${orderToken}`, status: 404 },
    { what: "the order's own page", path: `/order/${orderToken}`, status: 200 },
    { what: "the cross-type token's data request", path: `/booking/${orderToken}.data`, status: 404 },
    { what: "a post to the order's page, which takes none", path: `/order/${orderToken}`, method: "POST", status: 405 },
    { what: "a wrong token in capitals' path", path: `/BOOKING/${bad[3]}`, status: 404 },
    { what: "an address the server refuses before the app", path: "/order/%E0%A4%A", status: 400 },
  ];
  for (const { what, path, method, status } of asked) {
    const answer =
      method === "POST"
        ? await request.post(path, { form: { anything: "1" }, headers: { Origin: ORIGIN }, maxRedirects: 0 })
        : await request.get(path, { maxRedirects: 0 });
    expect(answer.status(), what).toBe(status);
    const headers = answer.headers();
    for (const [name, value] of Object.entries(SECRET_HEADERS)) expect(headers[name], `${what}: ${name}`).toBe(value);
  }
  // A page elsewhere keeps the site's usual policy (the rule is the links', not every page's).
  const home = await request.get("/");
  expect(home.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(home.headers()["x-robots-tag"]).toBeUndefined();

  // The refused post is logged ("request refused", with its path): with the token replaced.
  const log = async () => readFileSync(E2E_LOG_FILE, "utf8");
  await expect.poll(async () => (await log()).includes('"path":"/order/:token"'), { timeout: 10_000 }).toBe(true);
  const text = await log();
  for (const token of [orderToken, ...bad]) expect(text.includes(token), "a token in the server's log").toBe(false);
  expect(text).not.toContain("not-a-token");
});
