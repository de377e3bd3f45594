import { randomUUID } from "node:crypto";
import { and, eq, lt, ne, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@db/client.server";
import { submissionClaims, submissionKeys } from "@db/schema";
import { SUBMISSION_KEY_FIELD } from "./result";

/**
 * Submission keys (DECISIONS 26): made for each render, checked when a post carries one,
 * recorded with the submission it stored, and pruned. Also the claims of paid renders: which
 * post of a render is being answered, so its twin waits for that answer (issue 28).
 */

/** A new render's key (app/forms/actions.server.ts formBootstrap). */
export const newSubmissionKey = (): string => randomUUID();

/**
 * The key a form render carried (app/forms/ui/LeadForm.tsx), or null when absent or malformed:
 * letters, digits and hyphens only (a UUID is), so no key can carry a pattern character.
 */
export const SUBMISSION_KEY_PATTERN = /^[A-Za-z0-9-]{16,64}$/;
export function readSubmissionKey(fields: FormData): string | null {
  const value = fields.get(SUBMISSION_KEY_FIELD);
  return typeof value === "string" && SUBMISSION_KEY_PATTERN.test(value) ? value : null;
}

export type StoredSubmission = { submissionTable: string; submissionId: number };

/** The submission a key stored, if any. */
export async function storedSubmission(db: DbOrTx, key: string): Promise<StoredSubmission | undefined> {
  const [row] = await db
    .select({ submissionTable: submissionKeys.submissionTable, submissionId: submissionKeys.submissionId })
    .from(submissionKeys)
    .where(eq(submissionKeys.key, key))
    .limit(1);
  return row;
}

/** Records the key with what it stored, in the submission's transaction (unique: a twin's commit rolls back). */
export async function recordSubmission(tx: DbOrTx, key: string, form: string, stored: StoredSubmission) {
  await tx.insert(submissionKeys).values({ key, form, ...stored });
}

/** The unique violation a second commit of the same key raises. */
export const SUBMISSION_KEY_CONSTRAINT = "submission_keys_pkey";

/** Keys are kept as long as a render can sensibly be sent again; claims a day. */
const KEY_DAYS = 30;

export async function pruneSubmissionKeys(db: DbOrTx): Promise<void> {
  await db.delete(submissionKeys).where(lt(submissionKeys.createdAt, sql`now() - make_interval(days => ${KEY_DAYS})`));
  await db.delete(submissionClaims).where(lt(submissionClaims.updatedAt, sql`now() - interval '1 day'`));
}

/**
 * Takes the claim of a paid render for this post: true when this post answers the render
 * (no post is running, or the one running is older than `staleMs`: its process died);
 * false when another post of it is being answered right now.
 */
export async function claimRender(db: DbOrTx, key: string, form: string, staleMs: number): Promise<boolean> {
  const rows = await db
    .insert(submissionClaims)
    .values({ key, form, state: "running" })
    .onConflictDoUpdate({
      target: submissionClaims.key,
      set: { state: "running", status: null, message: null, updatedAt: sql`now()` },
      where: or(
        ne(submissionClaims.state, "running"),
        lt(submissionClaims.updatedAt, sql`now() - make_interval(secs => ${staleMs / 1000})`),
      ),
    })
    .returning({ key: submissionClaims.key });
  return rows.length === 1;
}

/** Keeps a running claim fresh while its post works (never revives one that ended). */
export async function renewClaim(db: DbOrTx, key: string): Promise<void> {
  await db
    .update(submissionClaims)
    .set({ updatedAt: sql`now()` })
    .where(and(eq(submissionClaims.key, key), eq(submissionClaims.state, "running")));
}

/** The claim ends: refused (its status and message, for a waiting twin) or answered (the row goes). */
export async function endClaim(db: DbOrTx, key: string, refusal?: { status: number; message: string }) {
  if (refusal) {
    await db
      .update(submissionClaims)
      .set({ state: "refused", status: refusal.status, message: refusal.message, updatedAt: sql`now()` })
      .where(and(eq(submissionClaims.key, key), eq(submissionClaims.state, "running")));
  } else {
    await db.delete(submissionClaims).where(eq(submissionClaims.key, key));
  }
}

export type ClaimState =
  { state: "running"; ageMs: number } | { state: "refused"; status: number; message: string } | { state: "none" };

export async function claimState(db: DbOrTx, key: string): Promise<ClaimState> {
  const [row] = await db
    .select({
      state: submissionClaims.state,
      status: submissionClaims.status,
      message: submissionClaims.message,
      ageMs: sql<number>`(extract(epoch from (now() - ${submissionClaims.updatedAt})) * 1000)::float8`,
    })
    .from(submissionClaims)
    .where(eq(submissionClaims.key, key))
    .limit(1);
  if (!row) return { state: "none" };
  if (row.state === "running") return { state: "running", ageMs: Number(row.ageMs) };
  return { state: "refused", status: row.status ?? 400, message: row.message ?? "" };
}
