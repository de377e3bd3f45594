import type { MailRow } from "./render.server";

/** A mail's label/value rows from a schema's labels (in their order) and the parsed value. */
export function summaryRows(
  labels: Record<string, string>,
  value: Record<string, unknown>,
  skip: string[] = [],
): MailRow[] {
  const rows: MailRow[] = [];
  for (const [key, label] of Object.entries(labels)) {
    if (skip.includes(key) || !(key in value)) continue;
    const v = value[key];
    if (v === undefined || v === null || v === "") continue;
    rows.push({ label, value: Array.isArray(v) ? v.join(", ") : String(v) });
  }
  return rows;
}
