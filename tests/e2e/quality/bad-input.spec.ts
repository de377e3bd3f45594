import { type APIRequestContext } from "@playwright/test";
import { expect, test } from "../support/test";
import { randomBytes } from "node:crypto";
import { closeE2eSql, e2eQuery } from "../support/db";
import { mailTo } from "../forms/helpers";
import { apiEndpoints, bookingEndpoints, htmlFormEndpoints } from "./endpoints";
import { freshIp, noJsFormFields } from "./form-support";

test.afterAll(closeE2eSql);

const fieldNames = [
  "first_name",
  "last_name",
  "email",
  "phone",
  "details",
  "zip",
  "description",
  "contact_method",
  "quote_for",
  "financing",
  "consultation",
  "start_time",
  "existing_customer",
  "business_name",
  "quote_type",
  "name",
  "address1",
  "address2",
  "city",
  "state",
  "country",
  "serviceDate",
  "serviceTime",
  "contactMethod",
  "product",
  "firstName",
  "lastName",
  "middleInitial",
  "address",
  "dateAvailable",
  "ssn",
  "desiredSalary",
  "position",
  "usCitizen",
  "authorized",
  "workedBefore",
  "convicted",
  "education",
  "qualificationStatement",
  "recaptcha_token",
  "captcha_answer",
  "captcha_challenge",
];

const nasty = [
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "'; DROP TABLE contact_submissions; --",
  "1 OR 1=1",
  "\u0000\u0001\u0002",
  "\ud800", // a lone surrogate
  "\u202e\u200b\ufeff", // RTL override, zero-width, BOM
  "😀".repeat(500),
  "Ω≈ç√∫˜µ≤≥÷",
  "x".repeat(1024 * 1024), // 1 MB
  "",
  " ",
  "-1",
  "99999999999999999999999",
  "null",
  "{}",
];

let seed = 1;
const rand = (n: number) => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed % n;
};
const pick = <T>(list: readonly T[]) => list[rand(list.length)]!;

function randomFields(): Record<string, string> {
  const out: Record<string, string> = {};
  const count = rand(8);
  for (let i = 0; i < count; i++) out[pick(fieldNames)] = pick(nasty);
  if (rand(3) === 0) out[`extra_${rand(100)}`] = pick(nasty); // an unknown field
  return out;
}

const textJpg = Buffer.from("this is plain text, not a picture\n".repeat(20));

type Attempt = (request: APIRequestContext, path: string) => Promise<{ status: number; body: string }>;

const attempts: [string, Attempt][] = [
  ["urlencoded fields", async (r, path) => toResult(await r.post(path, { form: randomFields(), headers: headers() }))],
  [
    "JSON of wrong types",
    async (r, path) =>
      toResult(
        await r.post(path, {
          data: {
            first_name: 42,
            email: ["a", "b"],
            phone: { x: 1 },
            details: null,
            quote_for: "not-a-list",
            photo: true,
          },
          headers: headers(),
        }),
      ),
  ],
  ["JSON fields", async (r, path) => toResult(await r.post(path, { data: randomFields(), headers: headers() }))],
  [
    "malformed JSON",
    async (r, path) =>
      toResult(
        await r.post(path, {
          data: '{"first_name": "Ada", "email": ',
          headers: { ...headers(), "Content-Type": "application/json" },
        }),
      ),
  ],
  [
    "wrong content type",
    async (r, path) =>
      toResult(
        await r.post(path, {
          data: "<xml><a>1</a></xml>",
          headers: {
            ...headers(),
            "Content-Type": pick(["application/xml", "text/plain", "image/png", "application/octet-stream"]),
          },
        }),
      ),
  ],
  [
    "malformed multipart",
    async (r, path) =>
      toResult(
        await r.post(path, {
          data: '--XYZ\r\nContent-Disposition: form-data; name="first_name"\r\n\r\nAda\r\n--XY',
          headers: { ...headers(), "Content-Type": "multipart/form-data; boundary=XYZ" },
        }),
      ),
  ],
  [
    "multipart without a boundary",
    async (r, path) =>
      toResult(await r.post(path, { data: "hello", headers: { ...headers(), "Content-Type": "multipart/form-data" } })),
  ],
  [
    "multipart with a text file named .jpg",
    async (r, path) =>
      toResult(
        await r.post(path, {
          multipart: {
            ...randomFields(),
            photo: { name: "door.jpg", mimeType: "image/jpeg", buffer: textJpg },
            data: JSON.stringify(randomFields()),
          },
          headers: headers(),
        }),
      ),
  ],
  ["empty body", async (r, path) => toResult(await r.post(path, { headers: headers() }))],
];

function headers() {
  return { "Fly-Client-IP": freshIp() };
}

async function toResult(res: Awaited<ReturnType<APIRequestContext["post"]>>) {
  return { status: res.status(), body: await res.text() };
}

test("1000+ generated bad requests at every form endpoint: no 5xx, a clear 4xx", async ({ request }) => {
  test.setTimeout(240_000);
  const endpoints = [...htmlFormEndpoints, ...bookingEndpoints, ...apiEndpoints];
  const jobs: (() => Promise<void>)[] = [];
  const failures: string[] = [];
  const perEndpoint = Math.ceil(1040 / endpoints.length);
  for (const path of endpoints) {
    for (let i = 0; i < perEndpoint; i++) {
      const [name, attempt] = attempts[i % attempts.length]!;
      jobs.push(async () => {
        const { status, body } = await attempt(request, path);
        if (status >= 500) failures.push(`${status} ${name} → ${path}: ${body.slice(0, 300)}`);
        // The JSON routes always answer { success, message } with a readable message.
        if (path.startsWith("/api/") && status !== 404) {
          try {
            const json = JSON.parse(body);
            if (json.success !== false || typeof json.message !== "string" || !json.message) {
              failures.push(`unclear answer ${status} ${name} → ${path}: ${body.slice(0, 300)}`);
            }
          } catch {
            failures.push(`not JSON ${status} ${name} → ${path}: ${body.slice(0, 300)}`);
          }
        }
      });
    }
  }
  expect(jobs.length).toBeGreaterThanOrEqual(1000);
  // Eight at a time.
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < jobs.length) await jobs[next++]!();
    }),
  );
  expect(failures.slice(0, 10)).toEqual([]);
});

test("GET and HEAD at every JSON route that takes a POST: 405 with Allow: POST, in the API's shape", async ({
  request,
}) => {
  for (const path of apiEndpoints) {
    const get = await request.get(path);
    expect(get.status(), path).toBe(405);
    expect(get.headers()["allow"], path).toBe("POST");
    expect(await get.json(), path).toEqual({ success: false, message: "This address answers POST only." });
    const head = await request.head(path);
    expect(head.status(), path).toBe(405);
  }
});

test("HTML and SQL in the text fields of an accepted submission are stored as text and escaped in the e-mails", async ({
  request,
  baseURL,
}) => {
  const tag = randomBytes(4).toString("hex");
  const evil = `<script>alert("${tag}")</script>'; DROP TABLE outbox; --`;
  const hidden = await noJsFormFields(request, "/contact");
  const res = await request.post("/contact", {
    headers: { ...headers(), Origin: baseURL! },
    form: {
      ...hidden,
      first_name: evil,
      last_name: evil,
      email: `evil.${tag}@example.com`,
      phone: "(810) 555-0143",
      details: evil,
    },
  });
  expect(res.status()).toBe(200);
  const html = await res.text();
  expect(html).toContain("Your message has been sent!");
  expect(html).not.toContain(`<script>alert("${tag}")`);

  const [row] = await e2eQuery<{ details: string }>("select details from contact_submissions where email = $1", [
    `evil.${tag}@example.com`,
  ]);
  expect(row!.details).toBe(evil);
  // The visitor's confirmation as the worker sent it (rendered at send time): its HTML part, decoded.
  const { eml } = await mailTo(`evil.${tag}@example.com`);
  const boundary = /boundary="([^"]+)"/.exec(eml)?.[1] ?? "";
  const htmlPart = (eml.split(`--${boundary}`).find((part) => part.includes("Content-Type: text/html")) ?? "")
    .split("\n\n")
    .slice(1)
    .join("\n\n");
  const mailHtml = htmlPart
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  expect(mailHtml).toContain("</html>");
  expect(mailHtml).not.toContain(`<script>alert("${tag}")`);
  expect(mailHtml).toContain("&lt;script&gt;");
});
