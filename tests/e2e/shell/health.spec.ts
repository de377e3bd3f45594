import { expect, test } from "@playwright/test";

test("/healthz answers 200 with the database status", async ({ request }) => {
  const res = await request.get("/healthz");
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({ db: "ok" });
});

test("every page is server-rendered with the header, menus, top bar and footer", async ({ request }) => {
  for (const path of ["/", "/anything-unknown"]) {
    const res = await request.get(path);
    const html = await res.text();
    expect(html).toContain('aria-label="Main"');
    expect(html).toContain('data-testid="topbar"');
    expect(html).toContain('aria-label="Site map"');
    expect(html).toContain("24/7 Emergency Service");
  }
});

test("security headers are sent, with a per-request script nonce", async ({ request }) => {
  const a = await request.get("/");
  const b = await request.get("/");
  const csp = a.headers()["content-security-policy"]!;
  expect(csp).toMatch(/script-src 'nonce-[^']+'/);
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toBe(b.headers()["content-security-policy"]);
  expect(a.headers()["x-content-type-options"]).toBe("nosniff");
  expect(a.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(a.headers()["strict-transport-security"]).toContain("max-age=");
});
