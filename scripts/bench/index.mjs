// `npm run bench` (scripts/bench.mjs runs this): a benchmark, not a test. Builds (if needed)
// and starts the production server on a scratch database, then measures on loopback:
//   - home, /shop, /product/{id}: requests/s and p50/p99 latency at 50 connections (pages.mjs),
//     and /shop?q=… with a new search on every request (shop-search.mjs)
//   - the static ceiling: the same home-page bytes from a minimal static server (static-ceiling.mjs)
//   - contact submissions on the no-JS path (signed sum answered), and that
//     stored rows equal 2xx responses (on DATABASE_URL's server when set),
//     taking turns with their ceiling: a bare handler writing the same rows
//     (scripts/bench-form-ceiling.mjs); accepted/s, CPU ms/req, the ratio (contact.mjs)
//   - 20 buyers checking out at once (POST /api/store/checkout, each with its
//     own cart and client IP, the sandbox's approving card): 2xx answers,
//     orders and approved charges stored, p50/p99 latency (checkout.mjs)
//   - idle and peak server RSS, time from start to first page on a migrated database (server.mjs), gzip JS bytes shipped (js-shipped.mjs)
//   - the server's RSS during one 10 × 4 MB photo upload (no-JS service
//     form): before, peak, and the growth as a multiple of the bytes sent (uploads.mjs)
//   - for every load: the server's CPU ms per request (steadier than req/s here)
//   - Interaction to Next Paint at 4× CPU: the booking calendar and the shop's
//     sort, median of 5 loads, ≤ 200 ms or the command exits 1 (`--inp`: this alone; inp.mjs)
//   - the payments audit over what the bench paid: 0 mismatches or the command exits 1 (payments-audit.mjs)
//   - each page kind's bytes on the wire against its budget (60 KB without a form, 150 KB with
//     one), or the command exits 1 (`--weight`: this alone; weight.mjs)
// Prints a table and writes bench-results/bench.json for comparison. `--soak` runs the soak
// alone instead (soak.mjs); `--history`, ten years of history against an empty database, on
// scratch databases of its own (history.mjs); `--compare DIR DIR…`, the start of several builds in
// turns (compare.mjs). Options and environment: args.mjs.
import { COMPARE, HISTORY, INP_ONLY, SOAK, WEIGHT_ONLY } from "./args.mjs";
import { checkoutRow, measureCheckouts } from "./checkout.mjs";
import { compareStarts } from "./compare.mjs";
import { measureContact } from "./contact.mjs";
import { createScratchDatabase, dropBenchDatabase } from "./database.mjs";
import { historyOnly } from "./history.mjs";
import { measureInp, printInp } from "./inp.mjs";
import { measureJs } from "./js-shipped.mjs";
import { row } from "./load.mjs";
import { measurePages } from "./pages.mjs";
import { runPaymentsAudit } from "./payments-audit.mjs";
import { peakRss, serverKb } from "./proc.mjs";
import { benchJson, benchTargets, printReport } from "./report.mjs";
import { databaseKind, gitCommit, targetsJson, writeResult } from "./results.mjs";
import { ensureBuild, idleRssMb, startServer, stopServer } from "./server.mjs";
import { measureShopSearch } from "./shop-search.mjs";
import { printSoak, runSoak } from "./soak.mjs";
import { measureStaticCeiling } from "./static-ceiling.mjs";
import { measureUploads } from "./uploads.mjs";
import { measureWeight, printWeight } from "./weight.mjs";

const notMeasured = (error) => ({ note: `not measured: ${error.message}` });

/** `--soak`: the soak alone; prints it, writes bench-results/soak.json and exits 0. */
async function soakOnly() {
  const soak = await runSoak();
  stopServer();
  await dropBenchDatabase();
  printSoak(soak);
  writeResult("soak.json", {
    at: new Date().toISOString(),
    commit: gitCommit(),
    database: databaseKind(),
    ...soak,
    targets: targetsJson(soak.targets),
  });
  process.exit(0);
}

/** `--inp`: INP alone; prints it, writes bench-results/inp.json, exits 1 unless every measure met its target. */
async function inpOnly() {
  const inp = await measureInp().catch(notMeasured);
  stopServer();
  await dropBenchDatabase();
  printInp(inp);
  writeResult("inp.json", { at: new Date().toISOString(), ...inp });
  process.exit(inp.met ? 0 : 1);
}

/** `--weight`: each page kind's bytes alone; prints them, writes bench-results/weight.json, exits 1 over a budget. */
async function weightOnly() {
  const weight = await measureWeight().catch(notMeasured);
  stopServer();
  await dropBenchDatabase();
  if (weight.pages) printWeight(weight);
  else console.log(weight.note);
  writeResult("weight.json", { at: new Date().toISOString(), commit: gitCommit(), ...weight });
  process.exit(weight.met ? 0 : 1);
}

/** Every measure in turn, then the report; exits 1 on an INP over its target (or not measured) or a payments mismatch. */
async function fullRun(firstOk) {
  const idleRss = await idleRssMb(serverKb);
  const rows = [];
  const { productPath, results, rows: pageRows } = await measurePages();
  rows.push(...pageRows);
  const search = await measureShopSearch();
  if (search) rows.push(row("/shop?q=… (a new search each)", search));
  const ceiling = await measureStaticCeiling();
  rows.push(row("static ceiling (home bytes)", ceiling));
  const ratio = results["home /"].requests.average / ceiling.requests.average;
  const { contact, formCeiling, rows: contactRows } = await measureContact();
  rows.push(...contactRows);
  const checkout = await measureCheckouts().catch(notMeasured);
  if (checkout.buyers) rows.push(checkoutRow(checkout));
  const { js, jsLoaded, jsSent } = await measureJs();
  const rss = peakRss();
  // The upload is measured after peak RSS is read: it resets that peak (VmHWM) to see its request alone.
  const uploads = await measureUploads().catch(notMeasured);
  // INP and the pages' weight last, so that their page loads weigh on none of the server's figures above.
  const inp = await measureInp().catch(notMeasured);
  const weight = await measureWeight().catch(notMeasured);
  const paymentsAudit = runPaymentsAudit();
  stopServer();
  await dropBenchDatabase();
  const m = {
    rows,
    productPath,
    results,
    ceiling,
    ratio,
    contact,
    formCeiling,
    checkout,
    js,
    jsLoaded,
    jsSent,
    idleRss,
    rss,
    uploads,
    firstOk,
    inp,
    paymentsAudit,
  };
  const targets = benchTargets(m);
  printReport(m, targets);
  if (weight.pages) printWeight(weight);
  else console.log(`\nWeight per page kind: ${weight.note}`);
  writeResult("bench.json", { ...benchJson(m, targets), weight });
  // The other targets are read from the table; an INP over its target (or not measured), a payments
  // audit that found a mismatch, or a page kind over its weight, fails the command.
  process.exit(inp.met && paymentsAudit.exit === 0 && weight.met ? 0 : 1);
}

ensureBuild();
if (COMPARE.length > 0) {
  await compareStarts(COMPARE);
  process.exit(0);
}
if (HISTORY) await historyOnly();
await createScratchDatabase();
const firstOk = await startServer();
if (SOAK) await soakOnly();
if (INP_ONLY) await inpOnly();
if (WEIGHT_ONLY) await weightOnly();
await fullRun(firstOk);
