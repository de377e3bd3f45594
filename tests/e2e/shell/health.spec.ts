import { expect, test } from "../support/test";
import { spamCheckShown } from "../forms/helpers";

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

test("a page's modules load after its first paint, and the page still comes alive", async ({ page, request }) => {
  // The document asks for no module before it has painted (app/shell/boot-after-paint.server.ts):
  // React Router's preload links are gone, and its boot script waits for the first frame.
  const html = await (await request.get("/pay-invoice")).text();
  expect(html).not.toContain('rel="modulepreload"');
  expect(html).toMatch(/requestAnimationFrame\(\(\) => setTimeout\(go\)\)/);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto("/pay-invoice");
  // The spam check exists only once React has hydrated the form.
  await spamCheckShown(page);
  expect(await page.locator('link[rel="modulepreload"]').count()).toBeGreaterThan(3);
  expect(errors).toEqual([]);
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

test("pages that hold a form are kept by no cache; pages that are the same for everyone may be shared", async ({
  request,
}) => {
  // Each form carries a single-use captcha challenge: a browser's or a proxy's copy would be spent.
  for (const path of [
    "/contact",
    "/request-quote?type=residential",
    "/employment",
    "/discount-signup-2025",
    "/commercial-schedule-service",
    "/residential-patio-doors",
    "/commercial-rolling-steel-doors",
  ]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    expect(res.headers()["cache-control"], path).toBe("private, no-store");
  }
  for (const path of ["/", "/about-us", "/careers"]) {
    const res = await request.get(path);
    expect(res.headers()["cache-control"], path).toMatch(/^public, .*s-maxage=\d+/);
  }
});

test("a page from the shared page cache carries its own nonce everywhere, compressed or not", async ({ request }) => {
  const first = await request.get("/about-us");
  const plain = await request.get("/about-us", { headers: { "accept-encoding": "identity" } });
  const gzip = await request.get("/about-us", { headers: { "accept-encoding": "gzip" } });
  const nonceOf = (res: typeof first) => /'nonce-([^']+)'/.exec(res.headers()["content-security-policy"]!)![1]!;
  const [a, b, c] = [await first.text(), await plain.text(), await gzip.text()];
  for (const [res, html] of [
    [plain, b],
    [gzip, c],
  ] as const) {
    expect(res.headers()["x-page-cache"]).toBe("hit");
    const nonce = nonceOf(res);
    expect(nonce).not.toBe(nonceOf(first));
    expect(html).not.toContain(nonceOf(first));
    expect(html.split(`nonce="${nonce}"`).length).toBe(a.split(`nonce="${nonceOf(first)}"`).length);
    expect(html.replaceAll(nonce, "N")).toBe(a.replaceAll(nonceOf(first), "N"));
  }
  expect(gzip.headers()["content-encoding"]).toBe("gzip");
  expect(plain.headers()["content-encoding"]).toBeUndefined();
});

test("static files carry the security headers, and scripts come pre-compressed as the browser accepts", async ({
  request,
}) => {
  const html = await (await request.get("/contact")).text(); // a page that runs the app
  // The shell chunk (vite.config.ts: what every page loads first); the entry itself is too small to be compressed.
  const script = /"(\/assets\/shell-[^"]+\.js)"/.exec(html)?.[1];
  expect(script).toBeTruthy();

  const plain = await request.get(script!, { headers: { "accept-encoding": "identity" } });
  const br = await request.get(script!, { headers: { "accept-encoding": "gzip, deflate, br" } });
  const gzip = await request.get(script!, { headers: { "accept-encoding": "gzip" } });
  expect(plain.headers()["content-encoding"]).toBeUndefined();
  expect(br.headers()["content-encoding"]).toBe("br");
  expect(gzip.headers()["content-encoding"]).toBe("gzip");
  for (const res of [plain, br, gzip]) {
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toMatch(/^text\/javascript/);
    expect(res.headers()["vary"]).toMatch(/Accept-Encoding/i);
    expect(res.headers()["cache-control"]).toContain("immutable");
    expect(res.headers()["x-content-type-options"]).toBe("nosniff");
    expect(res.headers()["strict-transport-security"]).toContain("max-age=");
    expect(res.headers()["content-security-policy"]).toContain("default-src 'none'");
  }
  // The same script, whichever copy was sent (Playwright decodes the body).
  expect((await br.body()).equals(await plain.body())).toBe(true);
  expect((await gzip.body()).equals(await plain.body())).toBe(true);
  // Copies made at build time have a length up front (compressing on the fly would stream them chunked).
  expect(Number(br.headers()["content-length"])).toBeGreaterThan(0);
  expect(Number(br.headers()["content-length"])).toBeLessThan(Number(gzip.headers()["content-length"]));

  // An SVG opened on its own runs nothing; a PDF keeps the browser's viewer but cannot be framed.
  const svg = await request.get("/images/logo.svg");
  expect(svg.headers()["content-security-policy"]).toContain("default-src 'none'");
  expect(svg.headers()["x-content-type-options"]).toBe("nosniff");
  const pdf = await request.get("/docs/d-165-spec-sheet.pdf");
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-security-policy"]).toBe("frame-ancestors 'none'");
  expect(pdf.headers()["x-frame-options"]).toBe("DENY");
});

test("what is answered before React Router's middleware carries the security headers too", async ({ request }) => {
  const html = await (await request.get("/contact")).text();
  const version = /\/assets\/manifest-([a-z0-9]+)\.js/.exec(html)?.[1]; // the build version React Router asks with
  expect(version).toBeTruthy();
  const manifest = await request.get(`/__manifest?paths=${encodeURIComponent("/contact")}&version=${version}`);
  expect(manifest.status()).toBe(200);
  expect(Object.keys(await manifest.json())).toContain("routes/contact");

  const refused = await request.post("/contact", {
    headers: { Origin: "https://elsewhere.example" },
    form: { first_name: "X" },
  });
  expect(refused.status()).toBe(403);
  const malformed = await request.get("/assets/%zz.js");
  expect(malformed.status()).toBe(400);

  for (const res of [manifest, refused, malformed]) {
    expect(res.headers()["x-content-type-options"]).toBe("nosniff");
    expect(res.headers()["strict-transport-security"]).toContain("max-age=");
    expect(res.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(res.headers()["content-security-policy"]).toContain("default-src 'none'");
  }
});

test("methods other than GET, HEAD and POST get a plain answer, not an error", async ({ request }) => {
  const options = await request.fetch("/contact", { method: "OPTIONS" });
  expect(options.status()).toBe(204);
  expect(options.headers()["allow"]).toBe("GET, HEAD, POST");
  expect(options.headers()["access-control-allow-origin"]).toBeUndefined();
  for (const method of ["TRACE", "PUT", "DELETE", "PATCH"]) {
    const res = await request.fetch("/api/store/contact/submit", { method });
    expect(res.status(), method).toBe(405);
    expect(res.headers()["allow"]).toBe("GET, HEAD, POST");
    expect(res.headers()["x-content-type-options"]).toBe("nosniff");
    expect(await res.text()).toBe("This address answers GET, HEAD and POST only.");
  }
});
