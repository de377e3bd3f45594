import { expect, test } from "../support/test";
import { closeE2eSql } from "../support/db";
import { dbRows } from "./helpers";

/** The SPEC §7 JSON routes over HTTP: same handlers, {success, message}, and the guards. */
test.afterAll(closeE2eSql);

const contact = {
  first_name: "Api",
  last_name: "Client",
  email: "api.client@example.com",
  phone: "810 555 0170",
  details: "Via the API.",
};

test("an API call without a captcha stores nothing: 'Please complete the CAPTCHA.'", async ({ request }) => {
  const response = await request.post("/api/store/contact/submit", {
    data: contact,
    headers: { "Fly-Client-IP": "10.250.0.1" },
  });
  expect(response.status()).toBe(400);
  expect(await response.json()).toEqual({ success: false, message: "Please complete the CAPTCHA." });
});

test("a POST from another site is refused with 403 (API and HTML routes) and nothing is stored", async ({
  request,
}) => {
  const headers = { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site", "Fly-Client-IP": "10.250.0.2" };
  const api = await request.post("/api/store/contact/submit", { data: contact, headers });
  expect(api.status()).toBe(403);
  expect(await api.json()).toEqual({ success: false, message: "This form can only be sent from our own website." });
  const page = await request.post("/contact", { form: { ...contact, details: "cross-site attempt" }, headers });
  expect(page.status()).toBe(403);
  expect(await page.text()).toBe("This form can only be sent from our own website.");
  // Origin alone (an older browser without Sec-Fetch-Site) is enough.
  const byOrigin = await request.post("/contact", {
    form: { ...contact, details: "cross-site attempt" },
    headers: { Origin: "https://evil.example" },
  });
  expect(byOrigin.status()).toBe(403);
  expect(await dbRows("select id from contact_submissions where details = $1", "cross-site attempt")).toHaveLength(0);
});

test("the 11th attempt from one IP within the window answers 429 with a readable message", async ({ request }) => {
  const headers = { "Fly-Client-IP": "10.250.0.3" };
  for (let i = 0; i < 10; i++) {
    expect((await request.post("/api/store/promo/submit", { data: {}, headers })).status()).toBe(400);
  }
  const limited = await request.post("/api/store/promo/submit", { data: {}, headers });
  expect(limited.status()).toBe(429);
  expect(Number(limited.headers()["retry-after"])).toBeGreaterThan(0);
  expect((await limited.json()).message).toMatch(/Please wait a few minutes/);
  const [row] = await dbRows<{ count: number }>("select count from rate_limits where key = $1", "promo:10.250.0.3");
  expect(Number(row!.count)).toBe(11);
});
