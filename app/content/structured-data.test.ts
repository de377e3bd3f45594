import { describe, expect, it } from "vitest";
import { businessJsonLd, businessJsonLdMeta } from "./structured-data";

describe("JSON-LD", () => {
  const data = businessJsonLd("https://dover.example.com");

  it("describes a HomeAndConstructionBusiness founded on 3 July 1936", () => {
    expect(data["@context"]).toBe("https://schema.org");
    expect(data["@type"]).toBe("HomeAndConstructionBusiness");
    expect(data.url).toBe("https://dover.example.com/");
    expect(data.foundingDate).toBe("1936-07-03");
    expect(data.telephone).toBe("+1-810-555-0100");
  });

  it("lists the four locations with addresses, and hours only for Flint and Saginaw", () => {
    expect(data.department.map((d) => d.address.addressLocality)).toEqual(["Flint", "Saginaw", "Lansing", "Pontiac"]);
    for (const d of data.department) {
      expect(d["@type"]).toBe("HomeAndConstructionBusiness");
      expect(d.address).toMatchObject({ addressRegion: "MI", addressCountry: "US" });
      expect(d.address.postalCode).toMatch(/^\d{5}$/);
      expect(d.telephone).toMatch(/^\+1-\d{3}-555-01\d{2}$/);
    }
    const hours = Object.fromEntries(
      data.department.map((d) => [
        d.address.addressLocality,
        "openingHoursSpecification" in d ? d.openingHoursSpecification : undefined,
      ]),
    );
    const weekdays = [
      {
        "@type": "OpeningHoursSpecification",
        dayOfWeek: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"],
        opens: "08:00",
        closes: "17:00",
      },
    ];
    expect(hours).toEqual({ Flint: weekdays, Saginaw: weekdays, Lansing: undefined, Pontiac: undefined });
  });

  it("takes the site URL from the root loader data", () => {
    const meta = businessJsonLdMeta([{ id: "root", loaderData: { siteUrl: "https://x.example.com" } }]);
    expect((meta as { "script:ld+json": { url: string } })["script:ld+json"].url).toBe("https://x.example.com/");
  });
});
