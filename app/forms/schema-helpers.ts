import { z } from "~/lib/zod";

/**
 * Small zod builders shared by every form schema (client and server), so each
 * field says its own readable message. Conform turns empty inputs into
 * `undefined` before these run.
 */
const required = (label: string) => `${label} is required.`;

export function requiredText(label: string, max = 200) {
  return z
    .string({ error: required(label) })
    .trim()
    .min(1, required(label))
    .max(max, `${label} must be ${max} characters or fewer.`);
}

export function optionalText(label: string, max = 200) {
  return z.string().trim().max(max, `${label} must be ${max} characters or fewer.`).optional();
}

export function emailField(label = "Email") {
  return z
    .string({ error: required(label) })
    .trim()
    .max(254, `${label} must be 254 characters or fewer.`)
    .pipe(z.email({ error: "Please enter a valid email address, like name@example.com." }));
}

/**
 * A North American number as people read it, "(810) 555-0142", from however it was typed
 * ("8105550142", "+1 810.555.0142"); anything else (an extension, letters, another country's
 * number) stays as typed. Hand-written rather than libphonenumber-js: the schema runs in the
 * browser too, and this is the one format the site shows (docs/decisions/078).
 */
export function formatUsPhone(typed: string): string {
  if (/[^\d\s().+-]/.test(typed)) return typed;
  const digits = typed.replace(/\D/g, "").replace(/^1(?=\d{10}$)/, "");
  const parts = /^([2-9]\d{2})([2-9]\d{2})(\d{4})$/.exec(digits);
  return parts ? `(${parts[1]}) ${parts[2]}-${parts[3]}` : typed;
}

/** A phone number we can call: stored and shown as formatUsPhone writes it. */
export function phoneField(label = "Phone") {
  return requiredText(label, 40)
    .refine((v) => (v.match(/\d/g) ?? []).length >= 7, {
      message: "Please enter a phone number we can call, with area code.",
    })
    .transform(formatUsPhone);
}

/** One of a fixed list; `missing` is the message when nothing was chosen. */
export function choice<const T extends readonly [string, ...string[]]>(missing: string, options: T) {
  return z.enum(options, {
    error: (issue) => (issue.input === undefined ? missing : "Please choose one of the listed options."),
  });
}

/** A calendar date from <input type="date"> (YYYY-MM-DD). */
export function dateField(label: string) {
  return z.iso.date({
    error: (issue) => (issue.input === undefined ? required(label) : `${label} must be a date.`),
  });
}

/** yes / no radio buttons (JSON clients may send true / false). */
export function yesNoField(label: string) {
  return z.preprocess(
    (v) =>
      v === "true" || v === true
        ? "yes"
        : v === "false" || v === false
          ? "no"
          : typeof v === "string"
            ? v.toLowerCase()
            : v,
    z.enum(["yes", "no"], {
      error: (issue) => (issue.input === undefined ? `Please answer: ${label}` : "Please answer yes or no."),
    }),
  );
}

/**
 * A form schema's field names in the order it declares them (the order the forms lay them out):
 * an object's keys, through any pipe or transform around it; [] when there is no object inside.
 * The error summary lists its links in this order (./ui/ErrorSummary.tsx), whatever order the
 * checks reported them in (a refinement's errors come after every field's own).
 */
export function schemaFieldOrder(schema: z.ZodType): string[] {
  let current: unknown = schema;
  for (let depth = 0; depth < 8 && current; depth++) {
    if (current instanceof z.ZodObject) return Object.keys(current.shape);
    const def = (current as { _zod?: { def?: { in?: unknown; innerType?: unknown; schema?: unknown } } })._zod?.def;
    current = def?.in ?? def?.innerType ?? def?.schema;
  }
  return [];
}
