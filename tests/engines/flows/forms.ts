import { enterCard, passSpamCheck, see, seeUrl, type Flow } from "../flow";

const CONTACT = 'form[aria-label="Contact form"]';
const INVOICE = 'form[aria-label="Invoice payment form"]';

/** A message through the contact form: the page says it was sent. */
export const contact: Flow = {
  name: "a contact post",
  async run(d, { tag }) {
    await d.goto("/contact");
    await d.fill({ within: CONTACT, label: "First Name" }, "Ada");
    await d.fill({ within: CONTACT, label: "Last Name" }, "Lovelace");
    await d.fill({ within: CONTACT, label: "Email" }, `contact.${tag}@example.com`);
    await d.fill({ within: CONTACT, label: "Phone" }, "8105550142");
    await d.fill({ within: CONTACT, label: "How can we help you?" }, "Our patio door sticks in summer.");
    await passSpamCheck(d, CONTACT);
    await d.click({ within: CONTACT, css: "button[type=submit]", text: "Submit" });
    await see(d, { within: ".form-status", css: ".form-message--success" }, "Your message has been sent!");
  },
};

/** An invoice of "1,000" paid with 4242…: the receipt says $1,000.00 and names the invoice. */
export const invoice: Flow = {
  name: "pay an invoice",
  async run(d, { tag }) {
    const number = `INV-${tag}`;
    await d.goto("/pay-invoice");
    await see(d, "h1", "Pay Invoice");
    await d.fill({ within: INVOICE, label: "Name" }, "Grace Hopper");
    await d.fill({ within: INVOICE, label: "Email" }, `invoice.${tag}@example.com`);
    await d.fill({ within: INVOICE, label: "Address" }, "12 Saginaw St");
    await d.fill({ within: INVOICE, label: "City" }, "Flint");
    await d.fill({ within: INVOICE, label: "ZIP Code" }, "48502");
    await d.fill({ within: INVOICE, label: "Invoice Number" }, number);
    await d.fill({ within: INVOICE, label: "Payment Amount" }, "1,000");
    await see(d, { within: INVOICE, css: "p[aria-live]", text: "Total:" }, "Total: $1,000.00");
    await enterCard(d, INVOICE, "Grace Hopper");
    await passSpamCheck(d, INVOICE);
    await d.click({ within: INVOICE, css: "button[type=submit]", text: "Pay Invoice" });
    await seeUrl(d, /\/pay-invoice\/receipt\/\d+\?sig=/);
    await see(d, "#receipt", "Submitted successfully!");
    await see(d, "#receipt", `$1,000.00 charged to Visa ending in 4242 for invoice ${number}`);
    await see(d, "#receipt dl", /Amount paid\s*\$1,000\.00/);
  },
};
