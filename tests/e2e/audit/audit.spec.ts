import { expect, test } from "../support/test";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { TEST_CARDS, TEST_CVCS, cardNumberPattern } from "../support/cards";
import { closeE2eSql, e2eQuery } from "../support/db";
import { E2E_PORT, e2eDatabaseUrl } from "../support/server";
import { E2E_LOG_FILE } from "./server-log";

/**
 * After the suite (playwright.config.ts runs it as the teardown of the
 * project every other one depends on): no card number and no CVC that a test
 * typed (tests/e2e/support/cards.ts) is anywhere in the e2e server's database
 * or in its log. The gateway keeps
 * the brand and the last four; anything more is a leak, whatever wrote it.
 *
 * Card numbers are 15–16 digits: found anywhere, in any grouping.
 *
 * CVCs are 3–4 digits, which ids, amounts and timings also are, so a bare
 * search would fail on any table with a few hundred rows. They are looked
 * for where a leaked CVC would sit:
 *  - beside a name for it (cardCVC, cvc, cvv, card_code as Authorize.net
 *    calls it, security code): `"cardCVC":"795"`, `cvc=795`, `CVC: 795`;
 *  - as any field's value in a form body (`=795&`) or a JSON string (`"795"`),
 *    as a form echoed whole or a card object serialised would put it;
 *  - in the log only, also as a word of its own (`… 795 …`, `["795"]`): the log
 *    is made of sentences and JSON, where numbers that are not a CVC are
 *    glued to a key (`"ms":795`), a path (`/receipt/795`) or a time
 *    (`12:03:07.795`), which do not count as a word here. In the database a
 *    lone number is an id or an amount as often as not, so not there.
 */

/** Where a leak was found and what it is, never the leaked value itself (the report must not repeat it). */
type Finding = { where: string; what: string };

const CARD_PATTERNS = Object.entries(TEST_CARDS).map(([name, number]) => ({
  what: `card number TEST_CARDS.${name}`,
  pattern: cardNumberPattern(number),
}));

function cvcPatterns(wordsToo: boolean) {
  return Object.entries(TEST_CVCS).flatMap(([name, cvc]) => {
    const what = `CVC TEST_CVCS.${name}`;
    return [
      {
        what: `${what} beside its name`,
        pattern: new RegExp(String.raw`(?:cvc|cvv2?|card_?code|security[ _-]?code|\bcid)\W{0,6}${cvc}(?!\d)`, "i"),
      },
      { what: `${what} as a form value`, pattern: new RegExp(String.raw`=${cvc}(?=$|[&\s"';,])`) },
      { what: `${what} as a JSON string`, pattern: new RegExp(`"${cvc}"`) },
      ...(wordsToo
        ? [{ what: `${what} as a word`, pattern: new RegExp(String.raw`(?<![\w./:-])${cvc}(?![\w./:-])`) }]
        : []),
    ];
  });
}

/** Every line that matches a pattern, with the table it belongs to in a dump. */
function findLeaks(source: string, text: string, patterns: { what: string; pattern: RegExp }[]): Finding[] {
  const findings: Finding[] = [];
  let table = "";
  text.split("\n").forEach((line, index) => {
    // pg_dump's "COPY public.payments (…) FROM stdin;" and the SQL reading's "-- table public.payments".
    const header = /^(?:COPY|-- table) ([\w".]+)/.exec(line);
    if (header) table = `, table ${header[1]}`;
    for (const { what, pattern } of patterns) {
      if (pattern.test(line)) findings.push({ where: `${source}${table}, line ${index + 1}`, what });
    }
  });
  return findings;
}

/** pg_dump from Debian's PostgreSQL packages (scripts/test.mjs installs them), newest first, then PATH's. */
function pgDumpCandidates(): string[] {
  let versions: string[] = [];
  try {
    versions = readdirSync("/usr/lib/postgresql").sort((a, b) => Number(b) - Number(a));
  } catch {
    // Not Debian's layout: PATH's pg_dump alone.
  }
  return [...versions.map((v) => `/usr/lib/postgresql/${v}/bin/pg_dump`).filter((p) => existsSync(p)), "pg_dump"];
}

/**
 * The whole database as text: pg_dump's on a PostgreSQL server
 * (E2E_DATABASE_URL), else every row of every table of every schema read with
 * SQL. Never pg_dump on the embedded database: its socket share gives every
 * client the server's own session, and pg_dump empties the session's
 * search_path, after which the server finds none of its tables (pg_dump 15
 * does so even as it refuses PGlite's PostgreSQL 18). pg_dump refusing a
 * server newer than itself falls back to SQL as well: the checks are the same.
 */
async function dumpDatabase(): Promise<{ how: string; text: string }> {
  const refusals: string[] = [];
  for (const pgDump of process.env.E2E_DATABASE_URL ? pgDumpCandidates() : []) {
    const run = spawnSync(pgDump, ["--dbname", e2eDatabaseUrl(), "--no-owner", "--no-privileges"], {
      encoding: "utf8",
      maxBuffer: 512 * 1024 * 1024,
    });
    if (run.status === 0) return { how: pgDump, text: run.stdout };
    refusals.push(`${pgDump}: ${run.error?.message ?? run.stderr.trim().split("\n")[0]}`);
  }
  const tables = await e2eQuery<{ name: string }>(
    `select format('%I.%I', table_schema, table_name) as name from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1`,
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const rows = await e2eQuery<{ row: string }>(`select t::text as row from ${name} t`);
    parts.push(`-- table ${name}`, ...rows.map((r) => r.row));
  }
  return { how: ["every table read with SQL", ...refusals].join("; "), text: parts.join("\n") };
}

test.afterAll(closeE2eSql);

test("no test card number or CVC in the database or the server's log", async () => {
  test.setTimeout(120_000);

  const dump = await dumpDatabase();
  test.info().annotations.push({ type: "database dump", description: dump.how });
  // The dump holds the tables a payment writes: it is this server's database, read whole.
  expect(dump.text).toContain("public.payments");

  expect(existsSync(E2E_LOG_FILE), `the e2e server's log (${E2E_LOG_FILE}) is written by scripts/e2e-server.mjs`).toBe(
    true,
  );
  const log = readFileSync(E2E_LOG_FILE, "utf8");
  // This run's server, at info level (the line is info).
  expect(log).toContain(`listening on http://localhost:${E2E_PORT}`);

  const findings = [
    ...findLeaks("database", dump.text, [...CARD_PATTERNS, ...cvcPatterns(false)]),
    ...findLeaks("server log", log, [...CARD_PATTERNS, ...cvcPatterns(true)]),
  ];
  expect(findings).toEqual([]);
});
