import { expect, test } from "../support/test";
import { randomBytes } from "node:crypto";
import { closeE2eSql, e2eQuery } from "../support/db";
import { freshIp, noJsFormFields } from "./form-support";

test.afterAll(closeE2eSql);

// 200 contact submissions at once on the no-JS path: every 2xx has exactly
// its row, and nothing is stored twice.
test("200 concurrent form posts: every accepted post has its row, no duplicates", async ({ playwright, baseURL }) => {
  test.setTimeout(120_000);
  const request = await playwright.request.newContext({ baseURL });
  const run = randomBytes(4).toString("hex");
  const N = 200;
  const prepared = [];
  for (let i = 0; i < N; i++) prepared.push(await noJsFormFields(request, "/contact"));

  const responses = await Promise.all(
    prepared.map((hidden, i) =>
      request.post("/contact", {
        headers: { "Fly-Client-IP": freshIp(), Origin: baseURL! },
        form: {
          ...hidden,
          first_name: "Load",
          last_name: `Test ${i}`,
          email: `load.${run}.${i}@example.com`,
          phone: "(810) 555-0142",
          details: `Concurrent submission ${i} of run ${run}`,
        },
      }),
    ),
  );
  const accepted = responses.filter((r) => r.status() >= 200 && r.status() < 300);
  for (const r of responses) expect(r.status(), await r.text().then((t) => t.slice(0, 200))).toBeLessThan(500);
  // Each accepted response says so to the visitor.
  for (const r of accepted) expect(await r.text()).toContain("Your message has been sent!");

  const rows = await e2eQuery<{ email: string; n: number }>(
    "select email, count(*)::int as n from contact_submissions where email like $1 group by email",
    [`load.${run}.%`],
  );
  expect(
    rows.every((r) => r.n === 1),
    "no submission stored twice",
  ).toBe(true);
  expect(rows).toHaveLength(accepted.length);
  expect(accepted.length).toBe(N);
  // And each has its outbox mail, written in the same transaction: the
  // company copy and the visitor's confirmation.
  const [mail] = await e2eQuery<{ n: number }>(
    "select count(*)::int as n from outbox o join contact_submissions c on o.source_table = 'contact_submissions' and o.source_id = c.id where c.email like $1",
    [`load.${run}.%`],
  );
  expect(mail!.n).toBe(2 * N);
  await request.dispose();
});
