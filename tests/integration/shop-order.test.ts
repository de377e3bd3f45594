import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { categories, products } from "@db/schema";
import { apiFormAction, formAction } from "~/forms/actions.server";
import { runForm } from "~/forms/pipeline";
import { addToCart, cartCookieHeader } from "~/shop/cart.server";
import { checkoutForm } from "~/shop/checkout/handle.server";
import { NO_ORDER_HEADING, ORDER_REFERENCE_PATTERN } from "~/shop/checkout/identity";
import { installationLabels } from "~/shop/checkout/installation";
import { findOrderByToken } from "~/shop/checkout/orders.server";
import { headers as orderHeaders, loader as orderLoader } from "~/routes/order";
import { loader as confirmationLoader } from "~/routes/order-confirmation";
import { loader as checkoutLoader } from "~/routes/checkout";
import { createTestDatabase } from "../support/db";
import { routesUse } from "./shop-support";
import { altchaToken, count, formPost, honeypotFields, nextIp, rows, sumAnswer, toFormData } from "./forms-support";
import { captureLogs, checkoutFields } from "./payments-support";

/**
 * Where to install and the order's page (issue 30 items 3 and 4, DECISIONS 32 to 34), on the real
 * database with the sandbox gateway: the installation address kept on the order (the billing one
 * when "Same as billing address" is checked or, for SPEC §7's payload, when nothing is said; the
 * block as typed otherwise, each of its fields then required), the order's reference and its page
 * by a token kept only as its SHA-256 (private, no-store, no Referer, noindex; another token or a
 * malformed one the site's 404), its status as staff set it, the buyer's mail written for a person,
 * /order-confirmation for what knows no token, and Back after paying.
 */
let conn: Connection;
const logs = captureLogs();
let category: number;

beforeAll(async () => {
  conn = await createTestDatabase({ seed: false });
  routesUse(conn);
  const [cat] = await conn.db.insert(categories).values({ name: "Order test" }).returning();
  category = cat!.id;
});
afterAll(async () => {
  logs.restore();
  await conn?.close();
});

async function product(over: Partial<typeof products.$inferInsert> = {}) {
  const [row] = await conn.db
    .insert(products)
    .values({
      name: `Product ${crypto.randomUUID().slice(0, 6)}`,
      priceCents: 3900,
      image: "/images/test/x.svg",
      categoryId: category,
      stock: 10,
      ...over,
    })
    .returning();
  return row!;
}

let buyers = 0;
async function buyer(...lines: { id: number; options?: Record<string, string> }[]) {
  let cartId: string | null = null;
  const ip = `198.51.100.${++buyers}`;
  for (const line of lines) {
    const added = await addToCart(conn.db, cartId, { inventory_id: line.id, selectedOptions: line.options ?? {} }, ip);
    if (!added.ok) throw new Error(added.message);
    cartId = added.cartId;
  }
  return { cartId, cookie: cartId ? (await cartCookieHeader(cartId)).split(";")[0]! : "" };
}

/** What the page's form sends about the installation: `installAsked`, the box when checked, the block (always). */
const SEPARATE = {
  installAsked: "1",
  installAddress: "77 Lakeshore Dr",
  installCity: "Port Huron",
  installState: "MI",
  installZip: "48060",
};
const SAME = { ...SEPARATE, installSameAsBilling: "on" };

const htmlForm = (cookie: string, body: Record<string, string>, key: string = crypto.randomUUID()) =>
  formPost(
    "/checkout",
    toFormData({ ...body, ...honeypotFields(), ...sumAnswer(), submission_key: key }),
    cookie ? { Cookie: cookie } : {},
  );
const run = (request: Request) => runForm(checkoutForm, request, { db: conn.db, clientIp: nextIp() });

async function apiPost(cookie: string, body: Record<string, unknown>) {
  const response = await apiFormAction(
    checkoutForm,
    {
      request: formPost(
        "/api/store/checkout",
        { ...body, recaptcha_token: await altchaToken() } as Record<string, string>,
        { Origin: "", "Sec-Fetch-Site": "", Cookie: cookie },
      ),
    },
    { db: conn.db, clientIp: nextIp() },
  );
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

type OrderRow = {
  id: number;
  reference: string;
  order_page_token_hash: string;
  order_status: string;
  installation_same_as_billing: boolean;
  installation_address: string;
  installation_city: string;
  installation_state: string;
  installation_zip: string;
};
const orderOf = async (email: string) =>
  (
    await rows<OrderRow>(
      conn.db,
      `select id, reference, order_page_token_hash, order_status, installation_same_as_billing, installation_address,
              installation_city, installation_state, installation_zip from orders where email = '${email}'`,
    )
  )[0];

const tokenOf = (redirectTo: string | undefined) =>
  /^\/order\/([A-Za-z0-9_-]{43})\?placed$/.exec(redirectTo ?? "")?.[1];
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const orderPage = (token: string, query = "") =>
  orderLoader({
    request: new Request(`http://localhost:3000/order/${token}${query}`),
    params: { token },
  } as unknown as Parameters<typeof orderLoader>[0]);

/** The loader's 404 (a thrown `data(…, { status: 404 })`), or what it returned. */
async function orderPageStatus(token: string): Promise<number> {
  try {
    await orderPage(token);
    return 200;
  } catch (thrown) {
    const init = (thrown as { init?: ResponseInit }).init;
    expect(new Headers(init?.headers).get("Referrer-Policy")).toBe("no-referrer");
    return init?.status ?? 500;
  }
}

const confirmation = (cookie: string, query: string) =>
  confirmationLoader({
    request: new Request(`http://localhost:3000/order-confirmation${query}`, { headers: { Cookie: cookie } }),
    url: new URL(`http://localhost:3000/order-confirmation${query}`),
  } as unknown as Parameters<typeof confirmationLoader>[0]);

describe("the installation address", () => {
  it("'Same as billing address' checked: the billing address is kept as where to install, the block (sent all the same) ignored", async () => {
    const item = await product();
    const { cookie } = await buyer({ id: item.id });
    const body = checkoutFields({ ...SAME });
    const outcome = await run(htmlForm(cookie, body));
    expect(outcome).toMatchObject({ ok: true });
    expect(await orderOf(body.email)).toMatchObject({
      installation_same_as_billing: true,
      installation_address: "4 Mill Rd",
      installation_city: "Flint",
      installation_state: "MI",
      installation_zip: "48503",
    });
  });

  it("not checked: the block as typed is kept beside the billing address", async () => {
    const item = await product();
    const { cookie } = await buyer({ id: item.id });
    const body = checkoutFields({ ...SEPARATE });
    const outcome = await run(htmlForm(cookie, body));
    expect(outcome).toMatchObject({ ok: true });
    expect(await orderOf(body.email)).toMatchObject({
      installation_same_as_billing: false,
      installation_address: "77 Lakeshore Dr",
      installation_city: "Port Huron",
      installation_state: "MI",
      installation_zip: "48060",
    });
    const [billing] = await rows(conn.db, `select address, city, zip from orders where email = '${body.email}'`);
    expect(billing).toEqual({ address: "4 Mill Rd", city: "Flint", zip: "48503" });
  });

  it("not checked and the block left empty: each of its fields is required (beside the other fields' errors), nothing charged", async () => {
    const item = await product();
    const { cookie } = await buyer({ id: item.id });
    const before = await count(conn.db, "payments");
    const outcome = await run(htmlForm(cookie, checkoutFields({ installAsked: "1", name: "" })));
    expect(outcome).toMatchObject({ ok: false, status: 400 });
    expect(outcome.fieldErrors).toMatchObject({
      name: [expect.any(String)],
      installAddress: [`${installationLabels.installAddress} is required.`],
      installCity: [`${installationLabels.installCity} is required.`],
      installState: [`${installationLabels.installState} is required.`],
      installZip: [`${installationLabels.installZip} is required.`],
    });
    expect(await count(conn.db, "payments")).toBe(before);
  });

  it("SPEC §7's payload: none of the new fields means the billing address; the block alone means another; installSameAsBilling true wins over a block", async () => {
    const item = await product();
    const none = await buyer({ id: item.id });
    const plain = checkoutFields();
    expect((await apiPost(none.cookie, plain)).json).toMatchObject({ success: true });
    expect(await orderOf(plain.email)).toMatchObject({ installation_same_as_billing: true, installation_zip: "48503" });

    const block = await buyer({ id: item.id });
    const separate = checkoutFields({
      installAddress: "9 Dock St",
      installCity: "Saginaw",
      installState: "MI",
      installZip: "48601",
    });
    expect((await apiPost(block.cookie, separate)).json).toMatchObject({ success: true });
    expect(await orderOf(separate.email)).toMatchObject({
      installation_same_as_billing: false,
      installation_address: "9 Dock St",
      installation_zip: "48601",
    });

    const said = await buyer({ id: item.id });
    const same = { ...checkoutFields({ installAddress: "9 Dock St" }), installSameAsBilling: "true" };
    expect((await apiPost(said.cookie, same)).json).toMatchObject({ success: true });
    expect(await orderOf(same.email)).toMatchObject({
      installation_same_as_billing: true,
      installation_address: "4 Mill Rd",
    });

    const half = await buyer({ id: item.id });
    const refused = await apiPost(half.cookie, {
      ...checkoutFields(),
      installSameAsBilling: false,
      installCity: "Lansing",
    });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toContain(`${installationLabels.installAddress} is required.`);
  });
});

describe("the order's page", () => {
  it("by its token: the reference, the items with options and units, the amounts, the card, both addresses, the status and what happens next; private, no Referer; another or a malformed token is a 404", async () => {
    const opener = await product({
      name: "Quiet Opener",
      priceCents: 54900,
      customFields: [
        {
          name: "Horsepower",
          options: [
            { label: "1/2 HP", price: 0 },
            { label: "3/4 HP", price: 60 },
          ],
        },
      ],
    });
    const remote = await product({ name: "Spare Remote", priceCents: 3900 });
    const { cookie } = await buyer(
      { id: opener.id, options: { Horsepower: "3/4 HP" } },
      { id: remote.id },
      { id: remote.id },
    );
    const body = checkoutFields({ ...SEPARATE, total: "687.00" });
    const outcome = await run(htmlForm(cookie, body));
    expect(outcome).toMatchObject({ ok: true });
    const token = tokenOf(outcome.redirectTo)!;
    expect(token).toBeDefined();
    const row = (await orderOf(body.email))!;
    // Only the token's hash is stored; the reference is short and random (its randomness is
    // reference.server.test.ts's to prove: a random reference may hold the id's digit by chance).
    expect(row.order_page_token_hash).toBe(sha256(token));
    expect(JSON.stringify(await rows(conn.db, `select * from orders where id = ${row.id}`))).not.toContain(token);
    expect(row.reference).toMatch(ORDER_REFERENCE_PATTERN);
    expect(row.order_status).toBe("received");

    const page = await orderPage(token, "?placed");
    expect(page.placed).toBe(true);
    expect(page.order).toMatchObject({
      reference: row.reference,
      progress: "received",
      paid: true,
      total: "$687.00",
      card: "Visa ending in 4242",
      name: "Ada Lovelace",
      billing: ["4 Mill Rd", "Flint, MI 48503"],
      installation: { sameAsBilling: false, lines: ["77 Lakeshore Dr", "Port Huron, MI 48060"] },
      lines: [
        {
          name: "Quiet Opener",
          options: ["Horsepower: 3/4 HP"],
          quantity: 1,
          unitPrice: "$609.00",
          lineTotal: "$609.00",
        },
        { name: "Spare Remote", options: [], quantity: 2, units: "2 × $39.00", lineTotal: "$78.00" },
      ],
    });
    expect((await orderPage(token)).placed).toBe(false);
    const headers = new Headers(orderHeaders({} as Parameters<typeof orderHeaders>[0]) as HeadersInit);
    expect(headers.get("Cache-Control")).toBe("private, no-store");
    expect(headers.get("Referrer-Policy")).toBe("no-referrer");

    // Another token (well formed, no order's), a malformed one, the hash itself: the site's 404.
    const other = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
    for (const bad of [other, token.slice(1), `${token}x`, row.order_page_token_hash, "1"]) {
      expect(await orderPageStatus(bad), bad).toBe(404);
    }
    expect(await findOrderByToken(conn.db, undefined)).toBeNull();
  });

  it("the status staff set in Studio is what the page shows, with its next step", async () => {
    const item = await product();
    const { cookie } = await buyer({ id: item.id });
    const body = checkoutFields({ ...SAME });
    const token = tokenOf((await run(htmlForm(cookie, body))).redirectTo)!;
    expect((await orderPage(token)).order).toMatchObject({
      progress: "received",
      installation: { sameAsBilling: true, lines: ["4 Mill Rd", "Flint, MI 48503"] },
    });
    await rows(conn.db, `update orders set order_status = 'scheduled' where email = '${body.email}'`);
    expect((await orderPage(token)).order.progress).toBe("scheduled");
    await rows(conn.db, `update orders set order_status = 'installed' where email = '${body.email}'`);
    expect((await orderPage(token)).order.progress).toBe("installed");
    // Only the four states: the database refuses any other.
    await expect(
      rows(conn.db, `update orders set order_status = 'shipped' where email = '${body.email}'`),
    ).rejects.toThrow();
  });

  it("the buyer's mail leads with the reference, the items, the amounts, the card, the addresses, what happens next and the page's link; the company's with the reference and where to install", async () => {
    const door = await product({ name: "Steel Entry Door", priceCents: 64900 });
    const { cookie } = await buyer({ id: door.id }, { id: door.id });
    const body = checkoutFields({ ...SEPARATE, total: "1298.00" });
    const outcome = await run(htmlForm(cookie, body));
    const token = tokenOf(outcome.redirectTo)!;
    const row = (await orderOf(body.email))!;
    const mail = await rows<{ to: string; kind: string; subject: string; text: string }>(
      conn.db,
      `select "to", kind, subject, text from outbox where source_table = 'orders' and source_id = ${row.id} order by id`,
    );
    expect(mail.map((m) => m.kind)).toEqual(["company", "receipt"]);
    const receipt = mail[1]!;
    expect(receipt.subject).toContain(`Your order ${row.reference} is placed`);
    const text = receipt.text;
    const order = [
      `Order reference: ${row.reference}`,
      "Steel Entry Door: 2 × $649.00 = $1,298.00",
      "Total: $1,298.00 (includes installation and sales tax)",
      "Paid: $1,298.00 charged to Visa ending in 4242",
      "Installation address: 77 Lakeshore Dr, Port Huron, MI 48060",
      "Billing address: 4 Mill Rd, Flint, MI 48503",
      "A service representative will call you within two business days to schedule the installation.",
      `/order/${token}`,
    ].map((piece) => {
      const at = text.indexOf(piece);
      expect(at, piece).toBeGreaterThanOrEqual(0);
      return at;
    });
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(text).not.toContain(`#${row.id}`);
    const company = mail[0]!;
    expect(company.text).toContain(`Order reference: ${row.reference}`);
    expect(company.text).toContain("77 Lakeshore Dr, Port Huron, MI 48060 (not the billing address)");
    // The token is the buyer's alone: never in the company's copy.
    expect(company.text).not.toContain(token);
  });
});

describe("/order-confirmation, Back after paying", () => {
  it("what knows no token: the order of this cart by its payment or id, with its reference (never the row id); another cart's or none: N/A under a neutral heading", async () => {
    const item = await product({ priceCents: 12000 });
    const { cookie } = await buyer({ id: item.id });
    const body = checkoutFields({ ...SAME });
    expect(await run(htmlForm(cookie, body))).toMatchObject({ ok: true });
    const [row] = await rows<{ id: number; reference: string; payment_id: number }>(
      conn.db,
      `select id, reference, payment_id from orders where email = '${body.email}'`,
    );
    expect((await confirmation(cookie, `?payment=${row!.payment_id}`)).order).toMatchObject({
      reference: row!.reference,
      total: "$120.00",
      installation: { sameAsBilling: true },
    });
    expect((await confirmation(cookie, `?order=${row!.id}`)).order).toMatchObject({ reference: row!.reference });
    const stranger = await buyer({ id: item.id });
    expect((await confirmation(stranger.cookie, `?payment=${row!.payment_id}`)).order).toBeNull();
    expect((await confirmation("", `?order=${row!.id}`)).order).toBeNull();
    expect((await confirmation(cookie, "?order=abc")).order).toBeNull();
    expect(NO_ORDER_HEADING).toBe("No order to show");
  });

  it("the success sets the recent-payment cookie to the order's page; the checkout then leads with it (its cart is empty)", async () => {
    const item = await product();
    const { cookie } = await buyer({ id: item.id });
    const request = htmlForm(cookie, checkoutFields({ ...SAME }));
    const thrown = await formAction(checkoutForm, { request }, { db: conn.db, clientIp: nextIp() }).catch(
      (e: unknown) => e,
    );
    expect(thrown).toBeInstanceOf(Response);
    const response = thrown as Response;
    expect(response.status).toBe(303);
    const location = response.headers.get("Location")!;
    expect(location).toMatch(/^\/order\/[A-Za-z0-9_-]{43}\?placed$/);
    const recent = response.headers.get("Set-Cookie")!.split(";")[0]!;
    const page = await checkoutLoader({
      request: new Request("http://localhost:3000/checkout", { headers: { Cookie: `${cookie}; ${recent}` } }),
    } as Parameters<typeof checkoutLoader>[0]);
    expect(page.total).toBeNull();
    expect(page.form.recentPayment).toEqual({ form: "checkout", path: location });
  });
});
