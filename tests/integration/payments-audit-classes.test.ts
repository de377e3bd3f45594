import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { addDays } from "~/booking/availability";
import { mailAuditMismatches } from "~/mail/staff-notices.server";
import type { PaymentGateway } from "~/payments/gateway";
import { createSandboxGateway, settleImmediately } from "~/payments/sandbox.server";
import { auditPayments } from "../../server/ledger";
import { createTestDatabase } from "../support/db";
import { rows } from "./forms-support";
import { book, LOST, order, stockedProduct, weekdays } from "./ledger-support";

/**
 * The payments audit reports each class of error the ledger's drills found, once each, with its
 * age: made here by hand as bad luck (or a careless edit) would leave them.
 */
let conn: Connection;
let gateway: PaymentGateway;
beforeAll(async () => {
  conn = await createTestDatabase({ seed: false });
  gateway = createSandboxGateway({ db: conn.db, settlesAt: settleImmediately });
});
afterAll(async () => {
  await conn?.close();
});

const weekday = weekdays();
const sql = (query: string) => rows(conn.db, query);
const chargeAt = async (paymentId: number) =>
  (await rows<{ id: string }>(conn.db, `select id from sandbox_transactions where reference = 'L${paymentId}'`))[0]!.id;

describe("npm run payments:audit sees every class", () => {
  it("a clean ledger: nothing", async () => {
    await book(conn.db, weekday(2), { gateway });
    expect(await auditPayments(conn.db, { gateway })).toEqual([]);
  });

  it("reports each class once, with its age, and the daily mail lists each once", async () => {
    // A: a second refund at the processor under a refund row's reference: no row accounts for it.
    const a = await book(conn.db, weekday(2), { gateway });
    expect(await gateway.refund(await chargeAt(a.paymentId), 10_00, "4242", "L999")).toMatchObject({
      status: "approved",
    });
    // B: a row decided "nothing was charged" whose charge the processor took.
    const bRow = await book(conn.db, weekday(2), { gateway });
    await sql(`update payments set state = 'declined', message = 'edited' where id = ${bRow.paymentId}`);
    // D: a charge the processor voided that the ledger still counts as paid.
    const cutoff = createSandboxGateway({ db: conn.db });
    const d = await book(conn.db, weekday(2), { gateway: cutoff });
    expect(await cutoff.void(await chargeAt(d.paymentId), "dashboard")).toMatchObject({ status: "approved" });
    // C: a void whose answer is unknown, left for more than the audit's patience.
    const c = await book(conn.db, weekday(2), { gateway });
    await sql(
      `insert into payments (kind, state, amount_cents, purpose, intent, parent_id, idempotency_key, change_key, processor, created_at, updated_at)
               values ('void', 'unknown', 129_95, 'service', 'cancel', ${c.paymentId}, 'cancel:${c.id}::${c.paymentId}', 'cancel:${c.id}:', 'sandbox', now() - interval '2 days', now() - interval '2 days')`.replace(
        "129_95",
        "12995",
      ),
    );
    // E: a Sunday stored at a weekday's price.
    const e = await book(conn.db, weekday(2), { gateway });
    await sql(`update service_requests set service_date = '${addDays(e.serviceDate, 5)}' where id = ${e.id}`);
    // F: a pending payment resolved without telling its visitor.
    const f = await book(conn.db, weekday(2), { gateway, card: LOST });
    await sql(
      `update payments set state = 'succeeded', processor_transaction_id = '${await chargeAt(f.paymentId)}', brand = 'Visa', last4 = '0119', updated_at = now() - interval '1 hour' where id = ${f.paymentId}`,
    );
    await sql(`update service_requests set payment_status = 'paid' where id = ${f.id}`);
    // G: an order released unpaid whose units never went back.
    const product = await stockedProduct(conn.db, 5, 10_000);
    const g = await order(conn.db, product.id, LOST, "100.00", gateway);
    await sql(`update orders set order_status = 'cancelled' where email = '${g.email}'`);

    const found = await auditPayments(conn.db, { gateway });
    const said = found.map((m) => `${m.where}: ${m.problem}`);
    const expectOne = (pattern: RegExp) =>
      expect(
        said.filter((s) => pattern.test(s)),
        said.join("\n"),
      ).toHaveLength(1);
    expectOne(
      /processor transaction sbx_\w+ \(refund, \$10\.00, L999\): the processor has it; no ledger row accounts for it/,
    );
    expectOne(new RegExp(`ledger row #${bRow.paymentId} .*the ledger says declined; the processor took \\$129\\.95`));
    expectOne(
      new RegExp(`ledger row #${d.paymentId} .*the processor voided this charge; the ledger has no void of it`),
    );
    expectOne(/\(void, \$129\.95\): still unknown after 10 minutes/);
    expectOne(new RegExp(`booking ${e.reference}: stored at \\$129\\.95; its day and window price \\$199\\.00`));
    expectOne(new RegExp(`ledger row #${f.paymentId} .*the visitor was never told`));
    expectOne(/order DO-\S+: released unpaid; its units were not returned to stock/);
    expect(found.find((m) => m.problem.includes("still unknown"))?.since?.getTime()).toBeLessThan(
      Date.now() - 86_400_000,
    );

    await mailAuditMismatches(conn.db, [...found, ...found]);
    const [mail] = await rows<{ text: string }>(
      conn.db,
      `select text from outbox where subject like '%payments audit%'`,
    );
    const lines = mail!.text.split("\n").filter((l) => l.startsWith("- "));
    expect(lines).toHaveLength(found.length);
    expect(lines.find((l) => l.includes("still unknown"))).toMatch(/\(2 days old\)$/);
  });
});
