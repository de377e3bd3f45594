import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { contactForm } from "~/forms/contact/handle.server";
import { apiFormAction } from "~/forms/actions.server";
import { runForm } from "~/forms/pipeline";
import { RATE_LIMIT_MESSAGE } from "~/http/rate-limit.server";
import { env } from "~/lib/env.server";
import { createTestDatabase } from "../support/db";
import { altchaToken, count, formPost, honeypotFields, nextIp, rows, sumAnswer, toFormData } from "./forms-support";

/**
 * The spam budget through the whole pipeline (issue 15, DECISIONS 27): the
 * honeypot is required on HTML posts and a form posted within the minimum
 * fill time is dropped like a tripped one; answers through the no-JS sum get
 * a tighter per-IP budget than proof-of-work ones; an address gets at most
 * three visitor confirmations a day while every submission still reaches the
 * company.
 */
let conn: Connection;
beforeAll(async () => {
  conn = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await conn?.close();
});

const valid = {
  first_name: "Ada",
  last_name: "Lovelace",
  email: "ada@example.com",
  phone: "(810) 555-0142",
  details: "Our garage door is stuck.",
};

function post(fields: Record<string, string>, clientIp = nextIp()) {
  return runForm(contactForm, formPost("/contact", toFormData({ ...valid, ...fields })), { db: conn.db, clientIp });
}

async function stored() {
  return { rows: await count(conn.db, "contact_submissions"), mail: await count(conn.db, "outbox") };
}

describe("honeypot and minimum fill time", () => {
  it("an HTML post without the honeypot fields is answered like a success and stores nothing", async () => {
    const before = await stored();
    const outcome = await post(sumAnswer());
    expect(outcome).toMatchObject({ ok: true, status: 200, message: "Your message has been sent!" });
    expect(outcome.submissionId).toBeUndefined();
    expect(await stored()).toEqual(before);
  });

  it("a JSON API client (SPEC §7) is not asked for the honeypot", async () => {
    const before = await stored();
    const response = await apiFormAction(
      contactForm,
      { request: formPost("/api/store/contact/submit", { ...valid, recaptcha_token: await altchaToken() }) },
      { db: conn.db, clientIp: nextIp() },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true });
    expect((await stored()).rows).toBe(before.rows + 1);
  });

  it("a form posted within FORM_MIN_FILL_MS of its render is dropped; the same form posted later is stored", async () => {
    expect(env().FORM_MIN_FILL_MS).toBe(2_000);
    const before = await stored();
    const fast = await post({ ...honeypotFields(300), ...sumAnswer() });
    expect(fast).toMatchObject({ ok: true, status: 200 });
    expect(fast.submissionId).toBeUndefined();
    expect(await stored()).toEqual(before);

    const human = await post({ ...honeypotFields(2_500), ...sumAnswer() });
    expect(human.ok).toBe(true);
    expect(human.submissionId).toBeGreaterThan(0);
    expect((await stored()).rows).toBe(before.rows + 1);
  });
});

describe("the no-JS sum's tighter budget", () => {
  it(`allows RATE_LIMIT_NOJS_MAX sum answers per form and IP, then 429; proof of work and other visitors are unaffected`, async () => {
    const max = env().RATE_LIMIT_NOJS_MAX;
    expect(max).toBeLessThan(env().RATE_LIMIT_MAX);
    const ip = "198.51.100.77";
    for (let i = 0; i < max; i++) {
      const outcome = await post({ ...honeypotFields(), ...sumAnswer() }, ip);
      expect(outcome.submissionId).toBeGreaterThan(0);
    }
    const before = await stored();
    const limited = await post({ ...honeypotFields(), ...sumAnswer() }, ip);
    expect(limited).toMatchObject({ ok: false, status: 429, message: RATE_LIMIT_MESSAGE });
    expect(Number(limited.headers?.["Retry-After"])).toBeGreaterThan(0);
    expect(Number(limited.headers?.["Retry-After"])).toBeLessThanOrEqual(env().RATE_LIMIT_WINDOW_SECONDS);
    // The visitor's words are kept for the re-rendered form; the spent captcha is not.
    expect(limited.reply?.initialValue).toMatchObject({ first_name: "Ada", details: "Our garage door is stuck." });
    expect(limited.reply?.initialValue).not.toHaveProperty("captcha_answer");
    expect(await stored()).toEqual(before);

    // The proof of work (a browser with JavaScript) from the same IP still goes through...
    const pow = await post({ ...honeypotFields(), recaptcha_token: await altchaToken() }, ip);
    expect(pow.submissionId).toBeGreaterThan(0);
    // ...and so does another visitor's sum.
    expect((await post({ ...honeypotFields(), ...sumAnswer() }, "198.51.100.78")).submissionId).toBeGreaterThan(0);

    const counters = await rows<{ key: string; count: number }>(
      conn.db,
      "select key, count from rate_limits where key like '%198.51.100.77' order by key",
    );
    expect(counters).toEqual([
      { key: "contact:198.51.100.77", count: max + 2 },
      { key: "nojs:contact:198.51.100.77", count: max + 1 },
    ]);
  });

  it("a wrong sum does not use up the budget (only verified answers count)", async () => {
    const ip = "198.51.100.79";
    for (let i = 0; i < 3; i++) {
      // Wrong for this very challenge (an answer taken from another challenge could be right by chance).
      const challenge = sumAnswer();
      const wrong = String((Number(challenge.captcha_answer) % 18) + 1);
      expect(
        (await post({ ...honeypotFields(), captcha_answer: wrong, captcha_challenge: challenge.captcha_challenge }, ip))
          .status,
      ).toBe(400);
    }
    expect((await post({ ...honeypotFields(), ...sumAnswer() }, ip)).submissionId).toBeGreaterThan(0);
  });
});

describe("visitor confirmations", () => {
  it("four submissions with one address in a day: four stored, four company copies, three confirmations; another address gets its own", async () => {
    const email = "target@example.com";
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) {
      const outcome = await post({ email: i % 2 ? email.toUpperCase() : email, ...honeypotFields(), ...sumAnswer() });
      expect(outcome).toMatchObject({ ok: true, status: 200 });
      ids.push(outcome.submissionId!);
    }
    const other = await post({ email: "other@example.com", ...honeypotFields(), ...sumAnswer() });

    const stored = await rows<{ id: number }>(
      conn.db,
      `select id from contact_submissions where id in (${ids.join(",")})`,
    );
    expect(stored).toHaveLength(4);
    const mails = await rows<{ to: string; kind: string; source_id: number }>(
      conn.db,
      `select "to", kind, source_id from outbox where source_id in (${[...ids, other.submissionId!].join(",")}) order by id`,
    );
    expect(mails.filter((m) => m.kind === "company").map((m) => m.source_id)).toEqual([...ids, other.submissionId]);
    expect(mails.every((m) => (m.kind === "company") === (m.to === env().COMPANY_INBOX))).toBe(true);
    expect(mails.filter((m) => m.kind === "confirmation").map((m) => [m.to.toLowerCase(), m.source_id])).toEqual([
      [email, ids[0]],
      [email, ids[1]],
      [email, ids[2]],
      ["other@example.com", other.submissionId],
    ]);
  });
});
