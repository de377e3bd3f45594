#!/usr/bin/env node
/**
 * Records the two short, silent videos of the content pages into public/media
 * (About: the company story; Commercial app: a demo), by drawing simple
 * animations on a canvas in Debian's Chromium and recording them with
 * MediaRecorder (VP9 WebM, low bitrate: a few hundred kilobytes each). No
 * external video host, no large files.
 *
 *   node scripts/content-media.mjs
 */
import { chromium } from "@playwright/test";
import { execSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const OUT = path.resolve("public/media");
const executablePath =
  process.env.CHROMIUM_PATH ??
  (execSync("command -v chromium", { shell: "/bin/sh" }).toString().trim() || "/usr/bin/chromium");

/** The page-side recorder: draws `scene(ctx, t)` for `seconds` and returns the WebM as base64. */
const recorder = async ({ seconds, sceneSource }) => {
  const W = 640;
  const H = 360;
  const canvas = document.createElement("canvas");
  canvas.width = W;
  canvas.height = H;
  document.body.append(canvas);
  const ctx = canvas.getContext("2d");
  const scene = new Function("ctx", "t", "W", "H", sceneSource);
  const stream = canvas.captureStream(24);
  const rec = new MediaRecorder(stream, { mimeType: "video/webm;codecs=vp9", videoBitsPerSecond: 160_000 });
  const chunks = [];
  rec.ondataavailable = (e) => e.data.size && chunks.push(e.data);
  const done = new Promise((resolve) => (rec.onstop = resolve));
  const start = performance.now();
  scene(ctx, 0, W, H);
  rec.start(1000);
  await new Promise((resolve) => {
    const frame = () => {
      const t = (performance.now() - start) / 1000;
      scene(ctx, Math.min(t, seconds), W, H);
      if (t < seconds) requestAnimationFrame(frame);
      else resolve();
    };
    requestAnimationFrame(frame);
  });
  rec.stop();
  await done;
  const blob = new Blob(chunks, { type: "video/webm" });
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
};

/** Shared drawing helpers, prepended to each scene. */
const helpers = `
const G = "#1d5c3a", GD = "#123d26", GL = "#2f7a50", TINT = "#eef6f1", SKY = "#dbeafe", WOOD = "#c8a27a";
const ease = (x) => x < 0 ? 0 : x > 1 ? 1 : 1 - Math.pow(1 - x, 3);
const phase = (t, a, b) => ease((t - a) / (b - a));
const font = (size, weight = 700) => ctx.font = weight + " " + size + "px system-ui, 'DejaVu Sans', Arial, sans-serif";
const text = (s, x, y, size, color, weight = 700, align = "left", alpha = 1) => {
  ctx.save(); ctx.globalAlpha = alpha; font(size, weight); ctx.fillStyle = color; ctx.textAlign = align; ctx.fillText(s, x, y); ctx.restore();
};
const rect = (x, y, w, h, color, alpha = 1) => { ctx.save(); ctx.globalAlpha = alpha; ctx.fillStyle = color; ctx.fillRect(x, y, w, h); ctx.restore(); };
const rrect = (x, y, w, h, r, color) => { ctx.fillStyle = color; ctx.beginPath(); ctx.roundRect(x, y, w, h, r); ctx.fill(); };
const circle = (x, y, r, color, alpha = 1) => { ctx.save(); ctx.globalAlpha = alpha; ctx.fillStyle = color; ctx.beginPath(); ctx.arc(x, y, r, 0, Math.PI * 2); ctx.fill(); ctx.restore(); };
`;

/** About: the company story (13 s). */
const storyScene = `${helpers}
rect(0, 0, W, H, TINT);
if (t < 3.2) {
  // 1936: the workshop appears.
  const p = phase(t, 0, 1.6);
  rect(0, 280, W, 80, "#cfe6d8");
  rect(360, 280 - 170 * p, 220, 170 * p, "#b8674a");
  if (p > 0.95) {
    ctx.fillStyle = G; ctx.beginPath(); ctx.moveTo(345, 112); ctx.lineTo(470, 60); ctx.lineTo(595, 112); ctx.fill();
    rect(395, 180, 150, 100, WOOD);
    ctx.strokeStyle = "#8a6440"; ctx.lineWidth = 5; ctx.beginPath(); ctx.moveTo(395,180); ctx.lineTo(545,280); ctx.moveTo(545,180); ctx.lineTo(395,280); ctx.stroke();
    rrect(400, 128, 140, 32, 5, G); text("DOVER DOORS", 470, 150, 16, "#fff", 800, "center");
  }
  text("3 July 1936", 40, 140, 40, GD, 800, "left", phase(t, 0.8, 1.6));
  text("A door workshop opens in Flint, Michigan", 40, 180, 18, "#1a1f1c", 500, "left", phase(t, 1.2, 2));
} else if (t < 6.6) {
  // Four generations: the timeline.
  const years = ["1936", "1952", "1968", "1979", "1994", "2008", "2016", "Today"];
  text("Four generations", W / 2, 90, 34, GD, 800, "center", phase(t, 3.2, 3.8));
  rect(60, 198, (W - 120) * phase(t, 3.4, 5.6), 4, GL);
  years.forEach((y, i) => {
    const x = 60 + i * ((W - 120) / 7);
    const a = phase(t, 3.4 + i * 0.27, 3.7 + i * 0.27);
    circle(x, 200, 12 * a, G);
    text(y, x, 240, 16, "#1a1f1c", 700, "center", a);
  });
  text("of one Michigan family", W / 2, 300, 20, "#1a1f1c", 500, "center", phase(t, 5.4, 6));
} else if (t < 9.8) {
  // Four locations.
  text("Four locations", 40, 80, 34, GD, 800, "left", phase(t, 6.6, 7.1));
  ctx.fillStyle = "#fff"; ctx.strokeStyle = GL; ctx.lineWidth = 3;
  ctx.beginPath(); ctx.moveTo(360, 330); ctx.lineTo(330, 200); ctx.lineTo(370, 90); ctx.lineTo(430, 40); ctx.lineTo(470, 120); ctx.lineTo(520, 130); ctx.lineTo(560, 250); ctx.lineTo(540, 330); ctx.closePath(); ctx.fill(); ctx.stroke();
  const spots = [["Saginaw", 480, 160], ["Flint", 500, 205], ["Lansing", 420, 250], ["Pontiac", 520, 262]];
  spots.forEach(([n, x, y], i) => {
    const a = phase(t, 7 + i * 0.5, 7.4 + i * 0.5);
    circle(x, y, 11 * a, G);
    text(n, 40, 140 + i * 40, 22, "#1a1f1c", 600, "left", a);
  });
} else {
  // A garage door closes; the promise.
  const p = phase(t, 9.8, 11.2);
  rect(0, 0, W, H, SKY);
  rect(0, 300, W, 60, "#cfe6d8");
  rect(150, 110, 340, 190, WOOD);
  ctx.fillStyle = G; ctx.beginPath(); ctx.moveTo(130, 115); ctx.lineTo(320, 40); ctx.lineTo(510, 115); ctx.fill();
  rect(190, 150, 260, 150, "#3b3f3c");
  const h = 150 * p;
  rect(190, 150, 260, h, "#fff");
  for (let k = 1; k < 4; k++) if (k * 37.5 < h) rect(190, 150 + k * 37.5, 260, 2, "#d1d5db");
  rect(0, 0, W, H, "rgba(12,53,32,0.78)", phase(t, 11.3, 11.9));
  text("If it sticks, squeaks or leaks,", W / 2, 160, 30, "#fff", 800, "center", phase(t, 11.5, 12));
  text("call us.", W / 2, 205, 30, "#fff", 800, "center", phase(t, 11.7, 12.2));
  text("Dover Doors & Windows · since 1936", W / 2, 260, 18, "#aad4bb", 600, "center", phase(t, 12, 12.5));
}
`;

/** Commercial app demo (13 s). */
const appScene = `${helpers}
rect(0, 0, W, H, TINT);
circle(470, 180, 160, "#cfe6d8");
// Phone
rrect(395, 20, 160, 320, 26, GD);
rrect(405, 42, 140, 278, 14, "#fff");
const px = 405, py = 42;
const step = t < 3 ? 0 : t < 6 ? 1 : t < 9.5 ? 2 : 3;
const titles = ["My Doors", "Dock Door 3", "Technician", "Visit complete"];
rrect(px, py, 140, 40, 14, G); rect(px, py + 26, 140, 14, G);
text(titles[step], px + 70, py + 26, 13, "#fff", 700, "center");
const captions = [["Pick the door that", "needs attention"], ["Report the problem", "with a photo"], ["Follow your technician", "to the site"], ["Get the service", "report"]];
text("Dover Commercial", 40, 100, 20, GL, 700);
captions[step].forEach((line, i) => text(line, 40, 142 + i * 30, 24, "#1a1f1c", 700));
text(["1", "2", "3", "4"][step] + " / 4", 40, 220, 16, "#4b5563", 600);
if (step === 0) {
  ["Dock Door 3", "Bay Door 1", "Entrance", "Rolling Door 2"].forEach((n, i) => {
    const y = py + 54 + i * 46;
    rrect(px + 10, y, 120, 38, 6, i === 0 && t > 2 ? "#d5eadd" : TINT);
    text(n, px + 20, y + 24, 12, "#1a1f1c", 600);
    circle(px + 118, y + 19, 5, i === 0 ? "#c62828" : GL);
  });
  if (t > 2) circle(px + 60, py + 73, 14, "rgba(29,92,58,0.35)");
} else if (step === 1) {
  rrect(px + 10, py + 52, 120, 80, 6, SKY);
  rect(px + 30, py + 70, 80, 50, "#9ca3af"); rect(px + 30, py + 70, 80, 25 * (1 + Math.sin(t * 2) * 0.1), "#fff");
  text("Stuck half open", px + 70, py + 152, 12, "#c62828", 700, "center");
  ["Emergency - ASAP", "Today 2-4 PM"].forEach((s, i) => {
    const y = py + 168 + i * 40;
    rrect(px + 10, y, 120, 32, 16, i === 0 && t > 4.6 ? G : TINT);
    text(s, px + 70, y + 20, 11, i === 0 && t > 4.6 ? "#fff" : "#1a1f1c", 700, "center");
  });
} else if (step === 2) {
  rect(px, py + 40, 140, 238, "#e5efe8");
  ctx.strokeStyle = "#fff"; ctx.lineWidth = 6; ctx.beginPath(); ctx.moveTo(px + 10, py + 250); ctx.lineTo(px + 60, py + 180); ctx.lineTo(px + 120, py + 90); ctx.stroke();
  const k = phase(t, 6, 9.2);
  circle(px + 120, py + 90, 9, "#c62828");
  const tx = k < 0.45 ? px + 10 + (50 * k) / 0.45 : px + 60 + (60 * (k - 0.45)) / 0.55;
  const ty = k < 0.45 ? py + 250 - (70 * k) / 0.45 : py + 180 - (90 * (k - 0.45)) / 0.55;
  rrect(tx - 10, ty - 7, 20, 14, 3, G);
  rrect(px + 10, py + 236, 120, 34, 6, "#fff");
  text("Arriving in " + Math.max(1, Math.round(18 * (1 - k))) + " min", px + 70, py + 258, 11, GD, 700, "center");
} else {
  circle(px + 70, py + 110, 34 * phase(t, 9.5, 10.1), GL);
  ctx.strokeStyle = "#fff"; ctx.lineWidth = 6; ctx.beginPath(); ctx.moveTo(px + 54, py + 110); ctx.lineTo(px + 66, py + 122); ctx.lineTo(px + 88, py + 98); ctx.stroke();
  ["New rollers fitted", "Springs adjusted", "Safety edge tested"].forEach((s, i) => text(s, px + 70, py + 180 + i * 24, 11, "#1a1f1c", 600, "center", phase(t, 10.2 + i * 0.4, 10.6 + i * 0.4)));
}
`;

/** MediaRecorder's WebM has no duration: add one to the Segment Info so players can show and seek it. */
function addDuration(buf, ms) {
  const INFO = Buffer.from([0x15, 0x49, 0xa9, 0x66]);
  const at = buf.indexOf(INFO);
  if (at < 0) throw new Error("no Info element");
  const first = buf[at + 4];
  let len = 1;
  while (len <= 8 && !(first & (0x80 >> (len - 1)))) len++;
  let size = first & (0xff >> len);
  for (let i = 1; i < len; i++) size = size * 256 + buf[at + 4 + i];
  const start = at + 4 + len;
  const content = buf.subarray(start, start + size);
  if (content.includes(Buffer.from([0x44, 0x89]))) return buf;
  const duration = Buffer.alloc(11);
  duration.set([0x44, 0x89, 0x88]);
  duration.writeDoubleBE(ms, 3);
  const body = Buffer.concat([content, duration]);
  const sizeVint = Buffer.alloc(8);
  sizeVint[0] = 0x01;
  sizeVint.writeUIntBE(body.length, 2, 6);
  return Buffer.concat([buf.subarray(0, at), INFO, sizeVint, body, buf.subarray(start + size)]);
}

const browser = await chromium.launch({
  executablePath,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
mkdirSync(OUT, { recursive: true });
for (const [file, sceneSource, seconds] of [
  ["dover-story.webm", storyScene, 13],
  ["dover-commercial-app-demo.webm", appScene, 13],
]) {
  const page = await browser.newPage();
  const base64 = await page.evaluate(recorder, { seconds, sceneSource });
  const webm = addDuration(Buffer.from(base64, "base64"), seconds * 1000);
  writeFileSync(path.join(OUT, file), webm);
  console.log(`wrote public/media/${file} (${Math.round(webm.length / 1024)} KB)`);
  await page.close();
}
await browser.close();
