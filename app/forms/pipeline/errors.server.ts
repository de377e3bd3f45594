import { log } from "~/lib/log.server";
import { THROWN_ERROR } from "../result";
import { readBody, type ParsedBody } from "~/http/read-body.server";
import type { FormDefinition, FormOutcome } from "./definition";
import { failure, hiddenFields, UNAVAILABLE_MESSAGE, valuesOnlyReply } from "./reply";

/** The driver's error behind Drizzle's wrapper (whose text lists the query's parameters). */
export function causeOf(error: unknown): unknown {
  return error instanceof Error && error.cause instanceof Error ? error.cause : error;
}

export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = causeOf(error) as { code?: unknown; constraint?: unknown; constraint_name?: unknown } | null;
  return e?.code === "23505" && (e.constraint === constraint || e.constraint_name === constraint);
}

/**
 * Errors that mean the database cannot be reached right now (as opposed to a
 * bug): lost or refused connections, a server shutting down, a closed PGlite.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = String((error as { code?: unknown }).code ?? "");
  if (
    /^(ECONNREFUSED|ECONNRESET|ECONNABORTED|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|CONNECTION_(CLOSED|ENDED|DESTROYED)|CONNECT_TIMEOUT)$/.test(
      code,
    )
  ) {
    return true; // refused, reset, unreachable, or a host name briefly missing during a restart
  }
  if (/^(08|57P0|53300)/.test(code)) return true; // connection exception; admin/crash shutdown, cannot connect now; too many clients
  return /PGlite is closed|Connection terminated|connection (closed|ended)/i.test(error.message);
}

/** The code of a database error, for a log line that names no submitted value. */
export const errorCode = (error: unknown) => (causeOf(error) as { code?: string } | null)?.code;

/**
 * Logs a failure that was not the visitor's: what failed, never the submitted values (a
 * query error's text carries its parameters: the driver's cause is logged, cut short, with
 * anything shaped like an SSN masked as a last line of defence).
 */
export function logUnexpected(form: string, error: unknown): void {
  const cause = causeOf(error);
  const text = (cause instanceof Error ? cause.message : String(cause))
    .slice(0, 300)
    .replace(/\d{3}[\s-]?\d{2}[\s-]?\d{4}/g, "[redacted]");
  log.error(
    {
      form,
      err: { name: cause instanceof Error ? cause.name : "Error", message: text, code: errorCode(error) },
    },
    "form submission failed",
  );
}

/** A throw no step answered: the database gone (503, values kept) or a bug (500, logged without values). */
export async function unexpected(
  def: FormDefinition,
  request: Request,
  body: ParsedBody | undefined,
  error: unknown,
): Promise<FormOutcome> {
  if (!isDatabaseUnavailable(error instanceof Error && error.cause ? error.cause : error)) {
    logUnexpected(def.id, error);
    return failure(500, THROWN_ERROR);
  }
  // Most likely nothing was written; if the commit did land before the connection broke, the
  // form's submission key (kept in the re-rendered form) makes the retry answer as that success.
  log.error({ form: def.id, err: { code: errorCode(error) } }, "form submission failed: database unavailable");
  const fields = body?.fields ?? (await readBody(request).catch(() => null))?.fields ?? null;
  return failure(503, UNAVAILABLE_MESSAGE, {
    reply: valuesOnlyReply(fields, def.schema, hiddenFields(def)),
    headers: { "Retry-After": "30" },
  });
}
