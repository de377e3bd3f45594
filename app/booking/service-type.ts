/** Which form /request-service shows: `?type=residential` (book and pay) or `?type=commercial`. */
export type ServiceType = "residential" | "commercial";

/** The form an address of /request-service asks for (its `type`), or null: the chooser. Client-safe. */
export function serviceType(url: URL): ServiceType | null {
  const type = url.searchParams.get("type");
  return type === "residential" || type === "commercial" ? type : null;
}
