import type { Database } from "@db/client.server";
import { getDb } from "~/lib/db.server";
import { env, type Env } from "~/lib/env.server";
import { AUTHORIZENET_ENDPOINTS, createAuthorizeNetGateway } from "./authorizenet.server";
import type { PaymentGateway } from "./gateway";
import { createSandboxGateway, settleImmediately } from "./sandbox.server";

export type {
  AdjustResult,
  CardInput,
  ChargeRequest,
  ChargeResult,
  GatewayName,
  LookupResult,
  PaymentGateway,
  ProcessorTransaction,
} from "./gateway";

/**
 * The one place that turns configuration into a gateway.
 *
 * PAYMENT_GATEWAY unset means the sandbox, except in production on a database
 * server (DATABASE_URL): there it must be said — `PAYMENT_GATEWAY=sandbox`
 * for a staging or demo deploy, `authorizenet` for the real site. A live site
 * left on the sandbox by omission would take every booking as "paid" while
 * taking no money, and nothing would look wrong until the bank statement:
 * the same reasoning, and the same form, as mail's `MAIL_TRANSPORT=files`
 * (DECISIONS 28). The embedded database (PGlite) is a development or
 * single-machine trial setup, so the default stands there.
 */
export function paymentConfigProblems(e: Env): string[] {
  const problems: string[] = [];
  if (e.NODE_ENV === "production" && e.DATABASE_URL && !e.PAYMENT_GATEWAY) {
    problems.push(
      "PAYMENT_GATEWAY: required in production with DATABASE_URL (the sandbox takes no money: every booking would look paid); set PAYMENT_GATEWAY=authorizenet, or PAYMENT_GATEWAY=sandbox to accept that explicitly",
    );
  }
  if (e.PAYMENT_GATEWAY === "authorizenet") {
    if (!e.AUTHORIZENET_LOGIN_ID) problems.push("AUTHORIZENET_LOGIN_ID: required with PAYMENT_GATEWAY=authorizenet");
    if (!e.AUTHORIZENET_TRANSACTION_KEY)
      problems.push("AUTHORIZENET_TRANSACTION_KEY: required with PAYMENT_GATEWAY=authorizenet");
  }
  return problems;
}

/**
 * The gateway the configuration names. The sandbox keeps its books in a database: `db` when given,
 * else the site's, opened on the sandbox's first transaction (making a gateway opens nothing).
 */
export function createGateway(e: Env, db?: Database): PaymentGateway {
  const problems = paymentConfigProblems(e);
  if (problems.length > 0) throw new Error(`Invalid payment configuration:\n  ${problems.join("\n  ")}`);
  if (e.PAYMENT_GATEWAY === "authorizenet") {
    return createAuthorizeNetGateway({
      loginId: e.AUTHORIZENET_LOGIN_ID!,
      transactionKey: e.AUTHORIZENET_TRANSACTION_KEY!,
      endpoint: AUTHORIZENET_ENDPOINTS[e.AUTHORIZENET_ENV],
      timeoutMs: e.PAYMENT_TIMEOUT_MS,
    });
  }
  return createSandboxGateway({
    db: db ?? getDb,
    ...(e.SANDBOX_SETTLEMENT === "immediate" ? { settlesAt: settleImmediately } : {}),
  });
}

let current: PaymentGateway | undefined;
const sandboxes = new WeakMap<Database, PaymentGateway>();

/**
 * The site's gateway, made from the environment on first use. Given the database handle the
 * caller writes its ledger to, the sandbox keeps its books there too (an integration test's
 * database rather than a second one opened for the site); Authorize.net ignores it.
 */
export function paymentGateway(db?: Database): PaymentGateway {
  current ??= createGateway(env());
  if (!db || current.name !== "sandbox") return current;
  let sandbox = sandboxes.get(db);
  if (!sandbox) {
    sandbox = createGateway(env(), db);
    sandboxes.set(db, sandbox);
  }
  return sandbox;
}
