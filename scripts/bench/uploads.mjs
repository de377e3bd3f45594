// One photo upload: the server's RSS while it takes 10 × 4 MB (the no-JS commercial service
// form, twice): before, peak, and the growth as a multiple of the bytes sent; and that the
// photos are stored, one row each, at full size. Run last of the server's figures: it resets
// the peak (VmHWM) to see this request alone.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import postgres from "postgres";
import { base } from "./args.mjs";
import { databaseUrl } from "./database.mjs";
import { formDefaults } from "./forms.mjs";
import { serverKb } from "./proc.mjs";
import { serverPid } from "./server.mjs";

const photoBytes = 4 * 1024 * 1024;
const count = 10;

/** A no-JS post of the commercial service form, as a browser sends it (multipart), with these photos. */
async function servicePost(photos) {
  const page = `${base}/request-service?type=commercial`;
  const fd = new FormData();
  for (const [name, value] of formDefaults(await (await fetch(page)).text())) fd.set(name, value);
  const service = {
    name: "Bench Logistics",
    phone: "(517) 555-0190",
    email: "bench-upload@example.com",
    address1: "900 Industrial Parkway",
    city: "Lansing",
    state: "MI",
    zip: "48906",
    country: "United States",
    serviceDate: new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10),
    serviceTime: "Evening (After 4 PM)",
    contactMethod: "Text",
  };
  for (const [name, value] of Object.entries(service)) fd.set(name, value);
  for (const photo of photos) fd.append("photo", photo);
  const response = await fetch(page, { method: "POST", body: fd, headers: { origin: base } });
  return { status: response.status, html: await response.text() };
}

/** Random (incompressible, like a camera's) bytes behind a JPEG signature. */
function jpeg(name, size) {
  const bytes = randomBytes(size);
  bytes.set([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
  return new File([bytes], name, { type: "image/jpeg" });
}

/** Upload number `run`: the server's RSS before it and at its peak during it, and the answer. */
async function uploadRun(run) {
  const photos = Array.from({ length: count }, (_, i) => jpeg(`photo-${run}-${i}.jpg`, photoBytes));
  await new Promise((r) => setTimeout(r, 500));
  const before = serverKb("VmRSS");
  // Writing 5 to clear_refs resets VmHWM to the current RSS (Linux ≥ 4.0); a
  // 5 ms sampler covers a kernel that refuses it.
  let resetPeak = true;
  try {
    writeFileSync(`/proc/${serverPid()}/clear_refs`, "5");
  } catch {
    resetPeak = false;
  }
  let sampled = before;
  const sampler = setInterval(() => (sampled = Math.max(sampled, serverKb("VmRSS"))), 5);
  const started = performance.now();
  const answer = await servicePost(photos);
  const ms = performance.now() - started;
  clearInterval(sampler);
  const peak = Math.max(sampled, resetPeak ? serverKb("VmHWM") : 0);
  const bytes = count * photoBytes;
  return {
    run,
    status: answer.status,
    stored: /Submitted successfully/.test(answer.html),
    "RSS before MB": Math.round(before / 1024),
    "peak RSS MB": Math.round(peak / 1024),
    "growth MB": Number(((peak - before) / 1024).toFixed(1)),
    "growth / bytes sent": Number((((peak - before) * 1024) / bytes).toFixed(2)),
    "post ms": Math.round(ms),
  };
}

/** The photos stored: rows and their bytes. */
async function storedPhotos() {
  const sql = postgres(databaseUrl(), {
    max: 1,
    onnotice: () => {},
  });
  try {
    const [r] =
      await sql`select count(*)::int as n, coalesce(sum(length(data)), 0)::bigint as b from uploads where file_name like 'photo-%'`;
    return { rows: r.n, storedBytes: Number(r.b) };
  } finally {
    await sql.end();
  }
}

/** A warm-up post, then two uploads; throws when the warm-up is not stored. */
export async function measureUploads() {
  const warm = await servicePost([jpeg("warm.jpg", 64 * 1024)]); // loads the upload path once
  if (!/Submitted successfully/.test(warm.html))
    throw new Error(`warm-up post answered ${warm.status} without success`);
  const runs = [];
  for (let run = 1; run <= 2; run++) runs.push(await uploadRun(run));
  // The rows are there, one per photo, at full size.
  const { rows, storedBytes } = await storedPhotos();
  return {
    photos: `${count} × ${photoBytes / 1024 / 1024} MB`,
    runs,
    rows,
    "rows = photos sent": rows === 2 * count && storedBytes === 2 * count * photoBytes,
  };
}
