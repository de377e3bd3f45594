import { z } from "~/lib/zod";

/**
 * Where to install (DECISIONS 34: every price includes installation), the checkout's schema
 * fragment (client-safe: Conform runs it in the browser, the pipeline on the server). The form
 * always carries the box "Same as billing address" (checked by default) and the address block;
 * the block is read only when the box is not checked. The form also sends `installAsked`, so
 * that an unchecked box (a browser sends nothing for it) means "another address" on the page,
 * while an API client that sends none of these fields (SPEC §7's payload) means "the billing
 * address". An API client may send the block alone (another address) or
 * `installSameAsBilling: false` with it.
 */
export const installationLabels = {
  installSameAsBilling: "Same as billing address",
  installAddress: "Installation Address",
  installCity: "Installation City",
  installState: "Installation State",
  installZip: "Installation ZIP Code",
} as const;

const MAX = { installAddress: 200, installCity: 100, installState: 50, installZip: 12 } as const;
type BlockField = keyof typeof MAX;
const BLOCK = Object.keys(MAX) as BlockField[];

/** The box's value: "on" from a browser, true/false or "true"/"false" (and yes/no) from a JSON client. */
const flag = z.preprocess(
  (v) => {
    if (typeof v === "boolean") return v;
    if (typeof v !== "string") return v;
    const s = v.trim().toLowerCase();
    return ["on", "true", "yes", "1"].includes(s) ? true : ["off", "false", "no", "0"].includes(s) ? false : v;
  },
  z.boolean({ error: "Choose whether to install at the billing address." }).optional(),
);

const blockText = (name: BlockField) =>
  z.string().trim().max(MAX[name], `${installationLabels[name]} must be ${MAX[name]} characters or fewer.`).optional();

/** Spread into the checkout's object: each field optional here, required by `checkInstallation` when the block counts. */
export const installationFields = {
  installSameAsBilling: flag,
  /** Sent by the page's form beside the box: it was asked (an unchecked box sends nothing). */
  installAsked: z.unknown().optional(),
  installAddress: blockText("installAddress"),
  installCity: blockText("installCity"),
  installState: blockText("installState"),
  installZip: blockText("installZip"),
};

export type InstallationValue = Partial<Record<BlockField, unknown>> & {
  installSameAsBilling?: unknown;
  installAsked?: unknown;
};

/** Whether the buyer asked for another address than the billing one. */
export function separateInstallation(value: InstallationValue): boolean {
  if (value.installSameAsBilling === true) return false;
  if (value.installSameAsBilling === false) return true;
  // The box not sent: the page's form asked (unchecked), or an API client sent an address of its own.
  return (
    value.installAsked !== undefined || BLOCK.some((name) => typeof value[name] === "string" && value[name] !== "")
  );
}

/**
 * The address block is required when it counts. Runs even when other fields failed
 * (`{ when: () => true }` where it is chained), so a page shows every missing field at once.
 */
export function checkInstallation(value: InstallationValue, ctx: z.RefinementCtx): void {
  if (!separateInstallation(value)) return;
  for (const name of BLOCK) {
    const v = value[name];
    if (typeof v !== "string" || v.trim() === "")
      ctx.addIssue({ code: "custom", path: [name], message: `${installationLabels[name]} is required.` });
  }
}

/** Chain after the checkout's own checks: `.superRefine(checkInstallation, INSTALLATION_CHECK)`. */
export const INSTALLATION_CHECK = { when: () => true } as const;

export type InstallationAddress = {
  sameAsBilling: boolean;
  address: string;
  city: string;
  state: string;
  zip: string;
};

type Billing = { address: string; city: string; state: string; zip: string };

/** Where to install, as the order keeps it: the billing address when it is the same, else the block as typed. */
export function installationOf(value: InstallationValue & Billing): InstallationAddress {
  if (!separateInstallation(value)) return { sameAsBilling: true, ...pick(value) };
  const text = (name: BlockField) => (typeof value[name] === "string" ? (value[name] as string).trim() : "");
  return {
    sameAsBilling: false,
    address: text("installAddress"),
    city: text("installCity"),
    state: text("installState"),
    zip: text("installZip"),
  };
}

const pick = ({ address, city, state, zip }: Billing) => ({ address, city, state, zip });
