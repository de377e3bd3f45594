import { type Locator } from "@playwright/test";
import { expect, test } from "../support/test";
import { TEST_CARDS, TEST_CVCS, cardNumberForms, cardNumberPattern } from "../support/cards";
import { closeE2eSql } from "../support/db";
import { asNewVisitor, dbRows, modes, open, solveCaptcha, statusMessage } from "./helpers";

test.afterAll(closeE2eSql);

/** Every field but the card, as a visitor fills them. */
async function fillInvoice(form: Locator, email: string, invoice: string) {
  await form.getByLabel(/^Name\b/).fill("Grace Hopper");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel(/^Address(?! 2)/).fill("12 Saginaw St");
  await form.getByLabel("City").fill("Flint");
  await form.getByLabel("ZIP Code").fill("48502");
  await form.getByLabel("Invoice Number").fill(invoice);
  await form.getByLabel("Payment Amount").fill("250.5");
  await form.getByLabel("Cardholder Name").fill("Grace Hopper");
  await form.getByLabel("Expiry Month (MM)").fill("04");
  await form.getByLabel("Expiry Year (YY)").fill("30");
  await form.getByLabel("CVC").fill(TEST_CVCS.three);
}

for (const mode of modes) {
  test.describe(`pay invoice, ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.javaScriptEnabled });

    test("an invoice of $250.5 paid with 4242…: charged $250.50, the receipt page after a 303, a refresh charges nothing", async ({
      page,
    }) => {
      const visitor = await asNewVisitor(page);
      const invoice = `INV-${visitor.tag}`;
      await open(page, "/pay-invoice", mode.javaScriptEnabled);
      await expect(page.getByRole("heading", { level: 1, name: "Pay Invoice" })).toBeVisible();
      const form = page.getByRole("form", { name: "Invoice payment form" });
      await expect(form.getByLabel("State")).toHaveValue("MI");
      await fillInvoice(form, visitor.email, invoice);
      const card = form.getByLabel("Card Number");
      if (mode.javaScriptEnabled) {
        await card.pressSequentially(cardNumberForms(TEST_CARDS.approve).digits);
        await expect(card).toHaveValue(TEST_CARDS.approve); // grouped in fours as typed
        await expect(form.getByText("Total: $250.50")).toBeVisible();
      } else {
        await card.fill(TEST_CARDS.approve);
      }
      await solveCaptcha(page, mode.javaScriptEnabled, form);
      await form.getByRole("button", { name: "Pay Invoice" }).click();

      await expect(page).toHaveURL(/\/pay-invoice\/receipt\/\d+\?sig=/);
      await expect(page.getByText("Submitted successfully!")).toBeVisible();
      await expect(page.getByText(`$250.50 charged to Visa ending in 4242 for invoice ${invoice}.`)).toBeVisible();

      const [row] = await dbRows<{
        amount_cents: number;
        status: string;
        last4: string;
        brand: string;
        invoice_status: string;
        client_ip: string;
      }>(
        `select p.amount_cents, p.status, p.last4, p.brand, i.status as invoice_status, i.client_ip
           from invoice_payments i join payments p on p.id = i.payment_id where i.invoice_number = $1`,
        invoice,
      );
      expect(row).toEqual({
        amount_cents: 25050,
        status: "approved",
        last4: "4242",
        brand: "Visa",
        invoice_status: "paid",
        client_ip: visitor.ip,
      });

      await page.reload();
      await expect(page.getByText(`$250.50 charged to Visa ending in 4242 for invoice ${invoice}.`)).toBeVisible();
      const charges = await dbRows<{ n: number }>(
        "select count(*)::int as n from payments p join invoice_payments i on i.payment_id = p.id where i.invoice_number = $1",
        invoice,
      );
      expect(charges[0]!.n).toBe(1);
    });

    test("a declined card: the gateway's message, card number and CVC empty, every other field kept", async ({
      page,
    }) => {
      const visitor = await asNewVisitor(page);
      const invoice = `INV-D-${visitor.tag}`;
      await open(page, "/pay-invoice", mode.javaScriptEnabled);
      const form = page.getByRole("form", { name: "Invoice payment form" });
      await fillInvoice(form, visitor.email, invoice);
      await form.getByLabel("Card Number").fill(TEST_CARDS.decline);
      await solveCaptcha(page, mode.javaScriptEnabled, form);
      await form.getByRole("button", { name: "Pay Invoice" }).click();

      await expect(statusMessage(page)).toHaveText("Your card was declined.");
      await expect(form.getByLabel("Card Number")).toHaveValue("");
      await expect(form.getByLabel("CVC")).toHaveValue("");
      await expect(form.getByLabel(/^Name\b/)).toHaveValue("Grace Hopper");
      await expect(form.getByLabel("Invoice Number")).toHaveValue(invoice);
      await expect(form.getByLabel("Payment Amount")).toHaveValue("250.5");
      await expect(form.getByLabel("Expiry Month (MM)")).toHaveValue("04");
      expect(await page.content()).not.toMatch(cardNumberPattern(TEST_CARDS.decline));
      expect(await dbRows("select 1 from invoice_payments where invoice_number = $1", invoice)).toEqual([]);
    });
  });
}
