import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { contactSubmissions } from "@db/schema";
import { createAltchaChallenge } from "~/forms/captcha/altcha.server";
import { SITEVERIFY_URL } from "~/forms/captcha/recaptcha.server";
import { createSumChallenge } from "~/forms/captcha/sum.server";
import { contactForm } from "~/forms/contact/handle.server";
import { CROSS_ORIGIN_MESSAGE } from "~/http/origin.server";
import { apiFormAction, formAction } from "~/forms/actions.server";
import { FormFailure, runForm, type FormDefinition } from "~/forms/pipeline";
import { RATE_LIMIT_MESSAGE } from "~/http/rate-limit.server";
import { CHECK_FIELDS_MESSAGE } from "~/forms/result";
import { env } from "~/lib/env.server";
import { cspAllowances } from "~/lib/startup.server";
import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { createTestDatabase } from "../support/db";
import { altchaToken, count, formPost, honeypotFields, sumAnswer, toFormData, nextIp } from "./forms-support";

/**
 * The pipeline's guards, on the contact form (the same code runs for every
 * form): captcha (missing, wrong, replayed, expired; ALTCHA, the no-JS sum and
 * reCAPTCHA), honeypot, cross-origin, rate limit, and the single transaction.
 */
let conn: Connection;
/** SPEC §8's words, which the API answers; a page says SPAM_CHECK (issue 38 item 3). */
const CAPTCHA = "Please complete the CAPTCHA.";
const SPAM_CHECK = "Please complete the spam check.";
const valid = {
  first_name: "Ada",
  last_name: "Lovelace",
  email: "ada@example.com",
  phone: "(810) 555-0142",
  details: "Hello.",
};

beforeAll(async () => {
  conn = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await conn?.close();
});

async function submit(extra: Record<string, string>, headers: Record<string, string> = {}, clientIp = nextIp()) {
  return runForm(contactForm, formPost("/contact", toFormData({ ...valid, ...honeypotFields(), ...extra }), headers), {
    db: conn.db,
    clientIp,
  });
}

async function stored() {
  return { rows: await count(conn.db, "contact_submissions"), mail: await count(conn.db, "outbox") };
}

describe("captcha", () => {
  it("missing: 'Please complete the spam check.' on a page, nothing stored, values kept (captcha fields not echoed)", async () => {
    const before = await stored();
    const outcome = await submit({ captcha_challenge: createSumChallenge().token, captcha_answer: "" });
    expect(outcome).toMatchObject({ ok: false, status: 400, message: SPAM_CHECK });
    expect(outcome.reply?.initialValue).toMatchObject({ first_name: "Ada", details: "Hello." });
    expect(outcome.reply?.initialValue).not.toHaveProperty("captcha_challenge");
    expect(outcome.reply?.initialValue).not.toHaveProperty("name__confirm");
    expect(await stored()).toEqual(before);
  });

  it("missing, with fields to correct as well (a no-JS post): the message asks for both; the API names the captcha and lists the fields", async () => {
    const html = await submit({ last_name: "", captcha_answer: "" });
    expect(html).toMatchObject({ ok: false, status: 400, message: `${CHECK_FIELDS_MESSAGE} ${SPAM_CHECK}` });
    expect(html.fieldErrors).toEqual({ last_name: ["Last Name is required."] });
    const api = await runForm(contactForm, formPost("/api/store/contact/submit", { ...valid, last_name: "" }), {
      db: conn.db,
      clientIp: nextIp(),
      api: true,
    });
    expect(api).toMatchObject({ ok: false, status: 400, message: CAPTCHA });
    // No secret field on this form: no notice.
    expect(html.notice).toBeUndefined();
  });

  it("a wrong sum, an expired sum and a replayed sum are refused", async () => {
    const before = await stored();
    const good = sumAnswer();
    const wrong = String((Number(good.captcha_answer) % 18) + 1);
    expect((await submit({ captcha_answer: wrong, captcha_challenge: good.captcha_challenge })).message).toBe(
      SPAM_CHECK,
    );

    const old = createSumChallenge(Date.now() - 31 * 60_000);
    const [, a, b] = /(\d) \+ (\d)/.exec(old.question)!;
    expect(
      (await submit({ captcha_answer: String(Number(a) + Number(b)), captcha_challenge: old.token })).message,
    ).toBe(SPAM_CHECK);
    expect(await stored()).toEqual(before);

    expect((await submit({ captcha_answer: good.captcha_answer, captcha_challenge: good.captcha_challenge })).ok).toBe(
      true,
    );
    const replay = await submit({ captcha_answer: good.captcha_answer, captcha_challenge: good.captcha_challenge });
    expect(replay).toMatchObject({ ok: false, message: SPAM_CHECK });
    expect((await stored()).rows).toBe(before.rows + 1);
  });

  it("ALTCHA: a wrong solution, an expired challenge and a replayed token are refused", async () => {
    const before = await stored();
    const challenge = await createAltchaChallenge();
    const solution = (await solveChallenge({ challenge, deriveKey }))!;
    const forged = Buffer.from(
      JSON.stringify({ challenge, solution: { ...solution, counter: solution.counter + 1 } }),
    ).toString("base64");
    expect((await submit({ recaptcha_token: forged })).message).toBe(SPAM_CHECK);
    expect((await submit({ recaptcha_token: "not-a-token" })).message).toBe(SPAM_CHECK);

    const expired = await createAltchaChallenge(Date.now() - 11 * 60_000);
    const expiredSolution = (await solveChallenge({ challenge: expired, deriveKey }))!;
    const expiredToken = Buffer.from(JSON.stringify({ challenge: expired, solution: expiredSolution })).toString(
      "base64",
    );
    expect((await submit({ recaptcha_token: expiredToken })).message).toBe(SPAM_CHECK);
    expect(await stored()).toEqual(before);

    const token = Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
    expect((await submit({ recaptcha_token: token })).ok).toBe(true);
    expect((await submit({ recaptcha_token: token })).message).toBe(SPAM_CHECK);
    expect((await stored()).rows).toBe(before.rows + 1);
  });

  it("reCAPTCHA when both keys are set: verified server-side with siteverify", async () => {
    const calls: URLSearchParams[] = [];
    const server = setupServer(
      http.post(SITEVERIFY_URL, async ({ request }) => {
        const body = new URLSearchParams(await request.text());
        calls.push(body);
        return HttpResponse.json(
          body.get("response") === "good-token"
            ? { success: true }
            : { success: false, "error-codes": ["invalid-input-response"] },
        );
      }),
    );
    server.listen({ onUnhandledRequest: "error" });
    const e = env();
    Object.assign(e, { RECAPTCHA_SITE_KEY: "site-key", RECAPTCHA_SECRET_KEY: "secret-key" });
    try {
      expect(cspAllowances().frameSrc).toContain("https://www.google.com/recaptcha/");
      const before = await stored();
      expect((await submit({ recaptcha_token: "bad-token" }, {}, "192.0.2.44")).message).toBe(SPAM_CHECK);
      expect(await stored()).toEqual(before);
      expect((await submit({ recaptcha_token: "good-token" }, {}, "192.0.2.44")).ok).toBe(true);
      expect(calls.map((c) => [c.get("secret"), c.get("response"), c.get("remoteip")])).toEqual([
        ["secret-key", "bad-token", "192.0.2.44"],
        ["secret-key", "good-token", "192.0.2.44"],
      ]);
      // The no-JS sum still works alongside reCAPTCHA.
      expect((await submit(sumAnswer())).ok).toBe(true);
    } finally {
      Object.assign(e, { RECAPTCHA_SITE_KEY: undefined, RECAPTCHA_SECRET_KEY: undefined });
      server.close();
    }
    expect(cspAllowances().workerSrc).toEqual(["'self'", "blob:"]);
  });
});

describe("honeypot", () => {
  it("a filled trap stores nothing but answers like a success", async () => {
    const before = await stored();
    const outcome = await submit({ ...sumAnswer(), name__confirm: "http://spam.example" });
    expect(outcome).toMatchObject({ ok: true, status: 200, message: "Your message has been sent!" });
    expect(await stored()).toEqual(before);
  });
});

describe("cross-origin and rate limit", () => {
  it("a POST from another site is refused with 403 and nothing stored", async () => {
    const before = await stored();
    const outcome = await submit(sumAnswer(), { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" });
    expect(outcome).toMatchObject({ status: 403, message: CROSS_ORIGIN_MESSAGE });
    const response = await apiFormAction(
      contactForm,
      {
        request: formPost(
          "/api/store/contact/submit",
          { ...valid, recaptcha_token: "x" },
          { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
        ),
      },
      { db: conn.db, clientIp: nextIp() },
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ success: false, message: CROSS_ORIGIN_MESSAGE });
    expect(await stored()).toEqual(before);
  });

  it(`allows ${10} attempts per form and IP in the window, then answers 429 with a readable message`, async () => {
    const max = env().RATE_LIMIT_MAX;
    const ip = "198.51.100.99";
    for (let i = 0; i < max; i++) {
      const attempt = await submit({}, {}, ip);
      expect(attempt.status).toBe(400);
    }
    const before = await stored();
    const limited = await submit(sumAnswer(), {}, ip);
    expect(limited).toMatchObject({ ok: false, status: 429, message: RATE_LIMIT_MESSAGE });
    expect(Number(limited.headers?.["Retry-After"])).toBeGreaterThan(0);
    expect(limited.reply?.initialValue).toMatchObject({ first_name: "Ada" });
    expect(await stored()).toEqual(before);

    const api = await apiFormAction(
      contactForm,
      { request: formPost("/api/store/contact/submit", valid) },
      { db: conn.db, clientIp: ip },
    );
    expect(api.status).toBe(429);
    expect(await api.json()).toEqual({ success: false, message: RATE_LIMIT_MESSAGE });

    // Another visitor, or another form, is not affected.
    expect((await submit(sumAnswer(), {}, "198.51.100.100")).ok).toBe(true);
    const counters = await conn.db.query.rateLimits.findMany();
    expect(counters.find((c) => c.key === `contact:${ip}`)?.count).toBe(max + 2);
  });
});

describe("one transaction per submission", () => {
  function variant(
    handle: FormDefinition<typeof contactForm.schema>["handle"],
  ): FormDefinition<typeof contactForm.schema> {
    return { ...contactForm, handle };
  }

  it("a thrown error rolls back the row and its mail: 'An error occurred. Please try again.'", async () => {
    const before = await stored();
    const def = variant(async (tx) => {
      await tx
        .insert(contactSubmissions)
        .values({ firstName: "x", lastName: "y", email: "z@example.com", phone: "1", details: "d" });
      throw new Error("disk full");
    });
    const outcome = await runForm(
      def,
      formPost("/contact", toFormData({ ...valid, ...sumAnswer(), ...honeypotFields() })),
      { db: conn.db, clientIp: nextIp() },
    );
    expect(outcome).toMatchObject({ ok: false, status: 500, message: "An error occurred. Please try again." });
    expect(await stored()).toEqual(before);
  });

  it("a handler's FormFailure (e.g. a declined card) rolls back and answers with its message, values kept", async () => {
    const before = await stored();
    const def = variant(async (tx, value, ctx) => {
      await contactForm.handle(tx, value, ctx);
      throw new FormFailure("Your card was declined.", {}, 402);
    });
    const outcome = await runForm(
      def,
      formPost("/contact", toFormData({ ...valid, ...sumAnswer(), ...honeypotFields() })),
      { db: conn.db, clientIp: nextIp() },
    );
    expect(outcome).toMatchObject({ ok: false, status: 402, message: "Your card was declined." });
    expect(outcome.reply?.initialValue).toMatchObject({ email: "ada@example.com" });
    expect(await stored()).toEqual(before);
  });

  it("a handler may ask for a redirect after success (HTML: 302; API: reported)", async () => {
    const def = variant(async (tx, value, ctx) => ({
      ...(await contactForm.handle(tx, value, ctx)),
      redirectTo: "/order-confirmation?order=7",
    }));
    const request = formPost("/contact", toFormData({ ...valid, ...sumAnswer(), ...honeypotFields() }));
    const thrown = await formAction(def, { request }, { db: conn.db, clientIp: nextIp() }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(302);
    expect((thrown as Response).headers.get("Location")).toBe("/order-confirmation?order=7");
    const api = await apiFormAction(
      def,
      { request: formPost("/api/x", { ...valid, recaptcha_token: await altchaToken() }) },
      { db: conn.db, clientIp: nextIp() },
    );
    expect(await api.json()).toEqual({
      success: true,
      message: "Your message has been sent!",
      redirect: "/order-confirmation?order=7",
    });
  });

  it("bodies it cannot read are refused cleanly", async () => {
    const bad = await runForm(contactForm, formPost("/contact", "{not json", { "Content-Type": "application/json" }), {
      db: conn.db,
      clientIp: nextIp(),
    });
    expect(bad).toMatchObject({ status: 400, message: "The request body is not valid JSON." });
    const plain = await runForm(contactForm, formPost("/contact", "hello", { "Content-Type": "text/plain" }), {
      db: conn.db,
      clientIp: nextIp(),
    });
    expect(plain.status).toBe(415);
  });
});

describe("submission key (one stored submission per form render)", () => {
  // Each with an address of its own: visitor confirmations are capped per address and day.
  const keyed = (key: string, extra: Record<string, string> = {}) =>
    formPost(
      "/contact",
      toFormData({
        ...valid,
        email: `k-${crypto.randomUUID().slice(0, 8)}@example.com`,
        ...honeypotFields(),
        ...sumAnswer(),
        submission_key: key,
        ...extra,
      }),
    );
  const keysStored = () => count(conn.db, "submission_keys");

  it("a resubmission of a stored form (refresh, retry after an unclear answer) answers as its success and stores nothing", async () => {
    const key = crypto.randomUUID();
    const before = await stored();
    const first = keyed(key, { email: "once@example.com" });
    const replay = first.clone(); // the very same body: its captcha answer is spent now
    const outcome = await runForm(contactForm, first, { db: conn.db, clientIp: nextIp() });
    expect(outcome).toMatchObject({ ok: true, status: 200, message: "Your message has been sent!" });
    const again = await runForm(contactForm, replay, { db: conn.db, clientIp: nextIp() });
    expect(again).toMatchObject({
      ok: true,
      status: 200,
      message: "Your message has been sent!",
      submissionId: outcome.submissionId,
    });
    expect(await stored()).toEqual({ rows: before.rows + 1, mail: before.mail + 2 });
  });

  it("two posts of one render at once (a double click): one row, both told it was sent", async () => {
    const key = crypto.randomUUID();
    const before = await stored();
    const [a, b] = await Promise.all([
      runForm(contactForm, keyed(key, { email: "twice@example.com" }), { db: conn.db, clientIp: nextIp() }),
      runForm(contactForm, keyed(key, { email: "twice@example.com" }), { db: conn.db, clientIp: nextIp() }),
    ]);
    expect([a.ok, b.ok]).toEqual([true, true]);
    expect(await stored()).toEqual({ rows: before.rows + 1, mail: before.mail + 2 });
  });

  it("is kept in a refused form's values (so its retry is recognised), and not in a kept form after success", async () => {
    const key = crypto.randomUUID();
    const refused = await runForm(contactForm, keyed(key, { email: "not-an-address" }), {
      db: conn.db,
      clientIp: nextIp(),
    });
    expect(refused.ok).toBe(false);
    expect(refused.reply?.initialValue).toMatchObject({ submission_key: key });
    const keepsValues: FormDefinition<typeof contactForm.schema> = { ...contactForm, keepValuesOnSuccess: true };
    const sent = await runForm(keepsValues, keyed(crypto.randomUUID()), { db: conn.db, clientIp: nextIp() });
    expect(sent.ok).toBe(true);
    expect(sent.reply?.initialValue).toMatchObject({ first_name: "Ada" });
    expect(sent.reply?.initialValue).not.toHaveProperty("submission_key");
  });

  it("a malformed key is ignored: the submission is stored without one", async () => {
    const before = { ...(await stored()), keys: await keysStored() };
    const outcome = await runForm(contactForm, keyed("x'; drop table outbox; --"), { db: conn.db, clientIp: nextIp() });
    expect(outcome.ok).toBe(true);
    expect(await stored()).toEqual({ rows: before.rows + 1, mail: before.mail + 2 });
    expect(await keysStored()).toBe(before.keys);
  });

  it("a connection lost in the middle of the transaction is retried once; the first attempt leaves nothing", async () => {
    const before = await stored();
    let attempts = 0;
    const def: FormDefinition<typeof contactForm.schema> = {
      ...contactForm,
      async handle(tx, value, ctx) {
        const result = await contactForm.handle(tx, value, ctx);
        attempts += 1;
        if (attempts === 1)
          throw Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });
        return result;
      },
    };
    const outcome = await runForm(def, keyed(crypto.randomUUID()), { db: conn.db, clientIp: nextIp() });
    expect(outcome).toMatchObject({ ok: true, status: 200 });
    expect(attempts).toBe(2);
    expect(await stored()).toEqual({ rows: before.rows + 1, mail: before.mail + 2 });

    // Without a key there is no safe retry: the visitor is told, values kept, with a Retry-After.
    attempts = 0;
    const unkeyed = await runForm(
      def,
      formPost("/contact", toFormData({ ...valid, email: "nokey@example.com", ...honeypotFields(), ...sumAnswer() })),
      {
        db: conn.db,
        clientIp: nextIp(),
      },
    );
    expect(unkeyed).toMatchObject({ ok: false, status: 503 });
    expect(unkeyed.headers?.["Retry-After"]).toBeTruthy();
    expect(unkeyed.reply?.initialValue).toMatchObject({ email: "nokey@example.com" });
    expect(attempts).toBe(1);
  });
});
