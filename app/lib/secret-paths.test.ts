import { describe, expect, it } from "vitest";
import { carriesLinkSecret, isPrivatePage, loggablePath, redactLinkSecrets } from "./secret-paths";

const TOKEN = "Qk3m9ZpX0aB-_c7Yt2LwVv8nR4sD1eFgHhJjKkMmNnP"; // 43 characters, as a link's token

describe("the addresses that carry a link's secret", () => {
  it("are the booking's and the order's pages, however React Router would still match them", () => {
    for (const path of [
      `/booking/${TOKEN}`,
      `/order/${TOKEN}?placed`,
      `/booking/${TOKEN}.data`,
      "/booking/not-a-token",
      "/order/%E0%A4%A", // an escape that does not decode
      `/BOOKING/${TOKEN}`, // matched case-insensitively
      `/b%6Foking/${TOKEN}`, // matched after decoding
      `//order/${TOKEN}`,
      `/order/${TOKEN}/more`,
    ])
      expect(carriesLinkSecret(path), path).toBe(true);
    for (const path of ["/", "/booking", "/booking/", "/shop", "/order-confirmation?order=1", "/my-cart", "/orders/x"])
      expect(carriesLinkSecret(path), path).toBe(false);
  });

  it("are logged without their token or query", () => {
    expect(loggablePath(`/booking/${TOKEN}?booked`)).toBe("/booking/:token");
    expect(loggablePath(`/Order/${TOKEN}/x.data`)).toBe("/order/:token");
    expect(loggablePath(`/b%6Foking/${TOKEN}`)).toBe("/booking/:token");
    expect(loggablePath("/shop?q=my+secret")).toBe("/shop");
    expect(loggablePath(undefined)).toBe("");
    expect(loggablePath(`/${"x".repeat(400)}`)).toHaveLength(300);
  });

  it("lose their token wherever a log line holds them, and a stack's source folder stays", () => {
    const line = JSON.stringify({
      msg: "request refused",
      path: `/order/${TOKEN}`,
      err: {
        message: `fetch http://localhost:3000/booking/${TOKEN}?booked failed`,
        stack: "at /app/booking/cancel.server.ts:3",
      },
    });
    const redacted = redactLinkSecrets(line);
    expect(redacted).not.toContain(TOKEN);
    expect(redacted).toContain('"path":"/order/:token"');
    expect(redacted).toContain("http://localhost:3000/booking/:token?booked");
    expect(redacted).toContain("/app/booking/cancel.server.ts");
    expect(redactLinkSecrets(redacted)).toBe(redacted);
  });
});

describe("a private page (the headers of one visitor's page)", () => {
  it("is a secret link or a signed receipt, however its path is spelled; a receipt's path is logged as it is", () => {
    for (const target of [
      "/booking/abc",
      "/pay-invoice/receipt/12?sig=x",
      "/PAY-INVOICE/receipt/12",
      "/pay-invoice/%72eceipt/12",
      "/request-service/receipt/7?sig=y",
    ])
      expect(isPrivatePage(target), target).toBe(true);
    for (const target of ["/pay-invoice", "/pay-invoice/receipt", "/request-service", "/receipts/1"])
      expect(isPrivatePage(target), target).toBe(false);
    expect(loggablePath("/pay-invoice/receipt/12?sig=secret")).toBe("/pay-invoice/receipt/12");
  });
});
