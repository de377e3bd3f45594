import { type Locator } from "@playwright/test";
import { expect, test } from "../support/test";
import { TEST_CARDS, TEST_CVCS, cardNumberPattern } from "../support/cards";
import { CARD_ENTRY, expectCaptchaKept, expectNoCardInFields, typeCardNumber, typeExpiry } from "../support/card-entry";
import { closeE2eSql } from "../support/db";
import { asNewVisitor, dbRows, mailTo, modes, open, solveCaptcha, statusMessage, todayInDetroit } from "./helpers";

test.afterAll(closeE2eSql);

const DECLINED = "Your card was declined. Try another card, or call your bank.";

/** Every field but the card number, as a visitor fills them; the amount as typed. */
async function fillInvoice(form: Locator, email: string, invoice: string, amount = "250.5") {
  await form.getByLabel(/^Name\b/).fill("Grace Hopper");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel(/^Address(?! 2)/).fill("12 Saginaw St");
  await form.getByLabel("City").fill("Flint");
  await form.getByLabel("ZIP Code").fill("48502");
  await form.getByLabel("Invoice Number").fill(invoice);
  await form.getByLabel("Payment Amount").fill(amount);
  await form.getByLabel(CARD_ENTRY.holder).fill("Grace Hopper");
  await form.getByLabel(CARD_ENTRY.cvc).fill(TEST_CVCS.three);
}

/** "November 26, 2026": today as the receipt names it (company time). */
function receiptDate(): string {
  return new Intl.DateTimeFormat("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" }).format(
    new Date(`${todayInDetroit()}T12:00:00Z`),
  );
}

/** A mail's text with quoted-printable undone. */
const decoded = (eml: string) =>
  eml.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

for (const mode of modes) {
  test.describe(`pay invoice, ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.javaScriptEnabled });

    test("an invoice of '1,000' paid with 4242…: charged $1,000.00, the receipt with its date, reference, invoice number and amount; its mail leads with them; a refresh charges nothing", async ({
      page,
    }) => {
      const visitor = await asNewVisitor(page);
      const invoice = `INV-${visitor.tag}`;
      await open(page, "/pay-invoice", mode.javaScriptEnabled);
      await expect(page.getByRole("heading", { level: 1, name: "Pay Invoice" })).toBeVisible();
      const form = page.getByRole("form", { name: "Invoice payment form" });
      await expect(form.getByLabel("State")).toHaveValue("MI");
      await fillInvoice(form, visitor.email, invoice, "1,000");
      if (mode.javaScriptEnabled) await expect(form.getByText("Total: $1,000.00")).toBeVisible();
      await typeCardNumber(form, mode.javaScriptEnabled, TEST_CARDS.approve);
      // One expiry field, typed as the card shows it: 1229 (the mask makes it 12/29; without JavaScript the server reads it).
      await typeExpiry(form, mode.javaScriptEnabled, "1229", "12/29");
      await solveCaptcha(page, mode.javaScriptEnabled, form);
      await form.getByRole("button", { name: "Pay Invoice" }).click();

      await expect(page).toHaveURL(/\/pay-invoice\/receipt\/\d+\?sig=/);
      await expect(page.getByText("Submitted successfully!")).toBeVisible();
      await expect(page.getByText(`$1,000.00 charged to Visa ending in 4242 for invoice ${invoice}.`)).toBeVisible();

      const [row] = await dbRows<{
        amount_cents: number;
        kind: string;
        state: string;
        last4: string;
        brand: string;
        invoice_status: string;
        client_ip: string;
        reference: string;
      }>(
        `select p.amount_cents, p.kind, p.state, p.last4, p.brand, i.status as invoice_status, i.client_ip, i.reference
           from invoice_payments i join payments p on p.id = i.payment_id where i.invoice_number = $1`,
        invoice,
      );
      expect(row).toEqual({
        amount_cents: 100_000,
        kind: "charge",
        state: "succeeded",
        last4: "4242",
        brand: "Visa",
        invoice_status: "paid",
        client_ip: visitor.ip,
        reference: expect.stringMatching(/^DP-[0-9A-Z]{4}-[0-9A-Z]{2}$/),
      });
      const receipt = page.locator("#receipt dl");
      await expect(receipt.locator("dt")).toHaveText(["Reference", "Date", "Invoice number", "Amount paid"]);
      await expect(receipt.locator("dd")).toHaveText([
        row!.reference,
        receiptDate(),
        invoice,
        "$1,000.00, charged to Visa ending in 4242",
      ]);

      // The visitor's mail leads with the same four lines, after its first sentence.
      const mail = decoded((await mailTo(visitor.email)).eml);
      const lead = [
        `Reference: ${row!.reference}`,
        `Date: ${receiptDate()}`,
        `Invoice number: ${invoice}`,
        "Amount paid: $1,000.00, charged to Visa ending in 4242",
      ];
      expect(mail).toMatch(new RegExp(lead.map((l) => l.replace(/[$.*+?()[\]{}|^\\]/g, "\\$&")).join("\r?\n")));
      expect(mail).not.toMatch(cardNumberPattern(TEST_CARDS.approve));

      await page.reload();
      await expect(page.getByText(`$1,000.00 charged to Visa ending in 4242 for invoice ${invoice}.`)).toBeVisible();
      const charges = await dbRows<{ n: number }>(
        "select count(*)::int as n from payments p join invoice_payments i on i.payment_id = p.id where i.invoice_number = $1",
        invoice,
      );
      expect(charges[0]!.n).toBe(1);
    });

    test("a declined card says what to do, keeps every field but the card number and CVC, and the captcha stays solved: another card pays without ticking it again", async ({
      page,
    }) => {
      test.slow(); // two payments, the captcha solved once
      const visitor = await asNewVisitor(page);
      const invoice = `INV-D-${visitor.tag}`;
      await page.goto("/contact");
      await open(page, "/pay-invoice", mode.javaScriptEnabled);
      const form = page.getByRole("form", { name: "Invoice payment form" });
      await fillInvoice(form, visitor.email, invoice, "$1,250.50");
      await typeCardNumber(form, mode.javaScriptEnabled, TEST_CARDS.decline);
      await typeExpiry(form, mode.javaScriptEnabled);
      await solveCaptcha(page, mode.javaScriptEnabled, form);
      const submissionKey = await form.locator('input[name="submission_key"]').inputValue();
      await form.getByRole("button", { name: "Pay Invoice" }).click();

      await expect(statusMessage(page)).toHaveText(DECLINED);
      await expect(form.getByLabel(CARD_ENTRY.number)).toHaveValue("");
      await expect(form.getByLabel(CARD_ENTRY.cvc)).toHaveValue("");
      await expect(form.getByLabel(/^Name\b/)).toHaveValue("Grace Hopper");
      await expect(form.getByLabel("Invoice Number")).toHaveValue(invoice);
      await expect(form.getByLabel("Payment Amount")).toHaveValue("$1,250.50");
      // The expiry kept, shown as MM/YY however it was typed (0430 here).
      await expect(form.getByLabel(CARD_ENTRY.expiry)).toHaveValue("04/30");
      expect(await page.content()).not.toMatch(cardNumberPattern(TEST_CARDS.decline));
      expect(await dbRows("select 1 from invoice_payments where invoice_number = $1", invoice)).toEqual([]);

      // Another card, and nothing else: the captcha is not solved again.
      await expectCaptchaKept(form, mode.javaScriptEnabled);
      await typeCardNumber(form, mode.javaScriptEnabled, TEST_CARDS.approve);
      await form.getByLabel(CARD_ENTRY.cvc).fill(TEST_CVCS.three);
      await form.getByRole("button", { name: "Pay Invoice" }).click();
      await expect(page).toHaveURL(/\/pay-invoice\/receipt\/\d+\?sig=/);
      await expect(page.getByText(`$1,250.50 charged to Visa ending in 4242 for invoice ${invoice}.`)).toBeVisible();
      const attempts = await dbRows<{ state: string; amount_cents: number }>(
        "select state, amount_cents from payments where idempotency_key = $1 order by id",
        `invoice:${submissionKey}`,
      );
      expect(attempts).toEqual([
        { state: "declined", amount_cents: 125_050 },
        { state: "succeeded", amount_cents: 125_050 },
      ]);

      // Back from the receipt (issue 38 item 4): never a form inviting a second payment, never the
      // browser's "confirm form resubmission", never a card's digits. With JavaScript the receipt
      // took the form's place in the history. Without, the declined post was answered with a 303
      // (Post/Redirect/Get): each page Back reaches is the form's address, asked for again, which
      // now leads with the receipt's link and no longer shows the refusal.
      await page.goBack();
      if (mode.javaScriptEnabled) await expect(page).toHaveURL(/\/contact$/);
      else {
        for (const step of ["the declined answer's place", "the form as first opened"]) {
          await expect(page, step).toHaveURL(/\/pay-invoice(#[\w-]+)?$/);
          await expect(page.getByText("You paid with this form a moment ago.")).toBeVisible();
          await expect(page.getByText(DECLINED)).toHaveCount(0);
          await expectNoCardInFields(page, { cards: [TEST_CARDS.decline, TEST_CARDS.approve], cvc: TEST_CVCS.three });
          await page.goBack();
        }
        await expect(page).toHaveURL(/\/contact$/);
        await page.goForward();
        await page.getByRole("link", { name: "See your receipt" }).click();
        await expect(page).toHaveURL(/\/pay-invoice\/receipt\/\d+\?sig=/);
      }
    });

    test("an amount the form cannot read is refused in words that say what to change", async ({ page }) => {
      const visitor = await asNewVisitor(page);
      await open(page, "/pay-invoice", mode.javaScriptEnabled);
      const form = page.getByRole("form", { name: "Invoice payment form" });
      await fillInvoice(form, visitor.email, `INV-A-${visitor.tag}`, "12.345");
      await typeCardNumber(form, mode.javaScriptEnabled, TEST_CARDS.approve);
      await typeExpiry(form, mode.javaScriptEnabled);
      await solveCaptcha(page, mode.javaScriptEnabled, form);
      await form.getByRole("button", { name: "Pay Invoice" }).click();
      await expect(form.getByText("Use at most 2 decimals (cents), like 1,250.50.")).toBeVisible();
      await expect(form.getByLabel("Payment Amount")).toHaveValue("12.345");
    });
  });
}
