// 20 buyers checking out at once (POST /api/store/checkout, the sandbox's approving card).
// Each buyer has its own cart (cookie) and client IP, and the same two products with
// stock enough for all, so every checkout should be paid and stored: the products' rows
// are what they contend for. Every 2xx must be one order and one approved charge in the
// database. 2xx answers, orders and charges stored, p50/p99 latency, CPU ms per checkout.
import postgres from "postgres";
import { CLIENT_IP_HEADER, base } from "./args.mjs";
import { databaseUrl } from "./database.mjs";
import { formDefaults } from "./forms.mjs";
import { peakRss, serverCpuMs } from "./proc.mjs";

const BUYERS = 20;

/** Buyer `i`'s cart of the `stocked` products, and the checkout it will post (its headers and JSON body). */
async function prepareBuyer(i, stocked, expiry) {
  const visitor = { [CLIENT_IP_HEADER]: `198.51.100.${i + 1}` }; // TEST-NET-2: one address per buyer
  let cookie = "";
  for (const product of stocked) {
    const added = await fetch(`${base}/api/store/cart/add`, {
      method: "POST",
      headers: { ...visitor, "content-type": "application/json", origin: base, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify({ inventory_id: product.id, selectedOptions: {} }),
    });
    if (!added.ok) throw new Error(`cart add answered ${added.status}`);
    cookie ||= (added.headers.get("set-cookie") ?? "").split(";")[0];
  }
  // The checkout page as this buyer sees it: its submission key, honeypot and sum.
  const page = await (await fetch(`${base}/checkout`, { headers: { ...visitor, cookie } })).text();
  const fields = Object.fromEntries(formDefaults(page));
  if (!fields.captcha_answer) throw new Error("the checkout page has no sum to answer");
  const body = {
    ...fields,
    name: `Bench Buyer ${i}`,
    email: `bench-buyer-${i}@example.com`,
    phone: "(810) 555-0150",
    address: "1 Bench Way",
    city: "Flint",
    state: "MI",
    zip: "48503",
    cardNumber: "4242 4242 4242 4242",
    expiry,
    cvv: "123",
  };
  return {
    headers: { ...visitor, cookie, "content-type": "application/json", origin: base },
    body: JSON.stringify(body),
  };
}

/** Every buyer's checkout posted at once; each answer's status (0: no answer) and ms. */
function checkOutAtOnce(buyers) {
  return Promise.all(
    buyers.map(async ({ headers, body }) => {
      const started = performance.now();
      try {
        const response = await fetch(`${base}/api/store/checkout`, { method: "POST", headers, body });
        await response.arrayBuffer();
        return { status: response.status, ms: performance.now() - started };
      } catch {
        return { status: 0, ms: performance.now() - started };
      }
    }),
  );
}

/** The buyers' orders and the approved order charges stored. */
async function storedOrders() {
  const sql = postgres(databaseUrl(), {
    max: 1,
    onnotice: () => {},
  });
  let orders;
  let charges;
  try {
    [{ n: orders }] = await sql`select count(*)::int as n from orders where email like 'bench-buyer-%@example.com'`;
    [{ n: charges }] =
      await sql`select count(*)::int as n from payments where purpose = 'order' and kind = 'charge' and state = 'succeeded'`;
  } finally {
    await sql.end();
  }
  return { orders, charges };
}

/** The 20 checkouts at once; throws when they cannot be set up (no stock, no sum to answer). */
export async function measureCheckouts() {
  const list = await (await fetch(`${base}/api/store/inventory/list`)).json();
  const stocked = list.filter((p) => p.stock >= BUYERS).slice(0, 2);
  if (stocked.length === 0) throw new Error(`no product has ${BUYERS} units in stock`);
  const expiry = `12/${String((new Date().getFullYear() + 3) % 100).padStart(2, "0")}`;
  const buyers = [];
  for (let i = 0; i < BUYERS; i++) buyers.push(await prepareBuyer(i, stocked, expiry));
  const peakBefore = peakRss();
  const cpuBefore = serverCpuMs();
  const answers = await checkOutAtOnce(buyers);
  const cpuMs = serverCpuMs() - cpuBefore;
  const { orders, charges } = await storedOrders();
  const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
  const at = (q) => Math.round(ms[Math.min(ms.length - 1, Math.ceil(q * ms.length) - 1)]);
  const ok = answers.filter((a) => a.status >= 200 && a.status < 300).length;
  return {
    buyers: BUYERS,
    products: stocked.map((p) => p.id).join(", "),
    "2xx": ok,
    statuses: [...new Set(answers.map((a) => a.status))].join(", "),
    errors: answers.filter((a) => a.status === 0).length,
    orders,
    "approved charges": charges,
    "p50 ms": at(0.5),
    "p99 ms": at(0.99),
    "server CPU ms/req": Number((cpuMs / BUYERS).toFixed(2)),
    "peak RSS MB before → after": `${peakBefore} → ${peakRss()}`,
  };
}

/** The checkouts' row of the printed table. */
export function checkoutRow(checkout) {
  return {
    target: `checkout POST ×${checkout.buyers} at once`,
    "req/s": "n/a",
    "p50 ms": checkout["p50 ms"],
    "p99 ms": checkout["p99 ms"],
    "non-2xx": checkout.buyers - checkout["2xx"],
    errors: checkout.errors,
    "server CPU ms/req": checkout["server CPU ms/req"],
  };
}
