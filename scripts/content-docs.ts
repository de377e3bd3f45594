/**
 * Writes the downloadable PDFs of the content pages into public/docs:
 * the windows catalog and the D-165 / D-200 sectional door spec sheets.
 * Plain PDF 1.4 written with Node's standard library only (Helvetica, vector
 * drawings, Flate-compressed streams), from the same data the pages show.
 *
 *   npx tsx scripts/content-docs.ts
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { deflateSync } from "node:zlib";
import { company } from "../app/content/company";
import { windowTypes } from "../app/content/data/windows";
import { sectionalModels } from "../app/content/pages/commercial";

const OUT = path.resolve("public/docs");
const W = 612; // US Letter, points
const H = 792;
const GREEN = [0.114, 0.361, 0.227] as const; // #1d5c3a
const TINT = [0.933, 0.965, 0.945] as const; // #eef6f1
const GREY = [0.3, 0.33, 0.36] as const;

/** PDF text: WinAnsi-safe ASCII with the few typographic characters our copy uses replaced. */
function pdfText(s: string): string {
  return s
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2013\u2014]/g, "-")
    .replace(/\u00d7/g, "x")
    .replace(/\u00b7/g, "-")
    .replace(/[^\x20-\x7e]/g, "")
    .replace(/\\/g, "\\\\")
    .replace(/\(/g, "\\(")
    .replace(/\)/g, "\\)");
}

/** Approximate Helvetica advance widths (per 1000 em) for wrapping. */
function textWidth(s: string, size: number, bold = false): number {
  let units = 0;
  for (const ch of s) {
    if ("il.,:;'|!".includes(ch)) units += 250;
    else if ("fjrt()- ".includes(ch)) units += 320;
    else if ("mwMW".includes(ch)) units += 860;
    else if (ch >= "A" && ch <= "Z") units += 680;
    else if (ch >= "0" && ch <= "9") units += 556;
    else units += 520;
  }
  return (units * size * (bold ? 1.06 : 1)) / 1000;
}

function wrap(s: string, size: number, width: number, bold = false): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of s.split(/\s+/)) {
    const next = line ? `${line} ${word}` : word;
    if (textWidth(next, size, bold) > width && line) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** One page's drawing operations. */
class Page {
  ops: string[] = [];
  y = H - 60;

  fill(rgb: readonly number[]) {
    this.ops.push(`${rgb.join(" ")} rg`);
    return this;
  }
  stroke(rgb: readonly number[], width = 1) {
    this.ops.push(`${rgb.join(" ")} RG ${width} w`);
    return this;
  }
  rect(x: number, y: number, w: number, h: number, mode: "f" | "S" | "B" = "f") {
    this.ops.push(`${x} ${y} ${w} ${h} re ${mode}`);
    return this;
  }
  line(x1: number, y1: number, x2: number, y2: number) {
    this.ops.push(`${x1} ${y1} m ${x2} ${y2} l S`);
    return this;
  }
  text(x: number, y: number, s: string, size = 11, bold = false, rgb: readonly number[] = [0.1, 0.12, 0.11]) {
    this.ops.push(`BT ${rgb.join(" ")} rg /${bold ? "F2" : "F1"} ${size} Tf ${x} ${y} Td (${pdfText(s)}) Tj ET`);
    return this;
  }
  /** A wrapped paragraph from the current y; moves y down. */
  para(s: string, opts: { x?: number; width?: number; size?: number; bold?: boolean; rgb?: readonly number[]; gap?: number } = {}) {
    const size = opts.size ?? 11;
    const x = opts.x ?? 54;
    for (const l of wrap(s, size, opts.width ?? W - 108, opts.bold)) {
      this.text(x, this.y, l, size, opts.bold, opts.rgb);
      this.y -= size * 1.4;
    }
    this.y -= opts.gap ?? 8;
    return this;
  }
  header(title: string, subtitle: string) {
    this.fill(GREEN).rect(0, H - 110, W, 110);
    this.text(54, H - 52, title, 24, true, [1, 1, 1]);
    this.text(54, H - 78, subtitle, 12, false, [0.9, 0.96, 0.92]);
    this.text(W - 54 - textWidth(company.name, 10, true), H - 30, company.name, 10, true, [1, 1, 1]);
    this.y = H - 150;
    return this;
  }
  footer(n: number, total: number) {
    this.stroke([0.8, 0.84, 0.81], 0.6).line(54, 50, W - 54, 50);
    const contact = `${company.name} - ${company.phone.display} - ${company.email} - Family owned since ${company.foundedText}`;
    this.text(54, 36, contact, 8.5, false, GREY);
    this.text(W - 80, 36, `Page ${n} of ${total}`, 8.5, false, GREY);
    return this;
  }
  /** A two-column table from the current y. */
  table(rows: { label: string; value: string }[], x = 54, width = W - 108) {
    const labelW = width * 0.38;
    for (const r of rows) {
      const valueLines = wrap(r.value, 10.5, width - labelW - 20);
      const h = Math.max(1, valueLines.length) * 14 + 10;
      this.fill(TINT).rect(x, this.y - h + 14, labelW, h);
      this.stroke([0.8, 0.84, 0.81], 0.6).rect(x, this.y - h + 14, width, h, "S");
      this.text(x + 8, this.y, r.label, 10.5, true);
      valueLines.forEach((l, i) => this.text(x + labelW + 10, this.y - i * 14, l, 10.5));
      this.y -= h;
    }
    this.y -= 10;
    return this;
  }
  bullets(items: string[], x = 54, width = W - 108) {
    for (const item of items) {
      this.fill(GREEN).rect(x, this.y + 2, 5, 5);
      const lines = wrap(item, 10.5, width - 16);
      lines.forEach((l, i) => this.text(x + 14, this.y - i * 14, l, 10.5));
      this.y -= lines.length * 14 + 4;
    }
    this.y -= 6;
    return this;
  }
}

/** Simple schematic drawings of each window type (frame, sashes, opening direction). */
function drawWindow(p: Page, slug: string, x: number, y: number, w: number, h: number) {
  p.stroke(GREEN, 3).fill([0.86, 0.92, 0.97]).rect(x, y, w, h, "B");
  p.stroke(GREEN, 2);
  const arrow = (x1: number, y1: number, x2: number, y2: number) => {
    p.stroke(GREY, 1).line(x1, y1, x2, y2);
  };
  switch (slug) {
    case "double-hung":
      p.line(x, y + h / 2, x + w, y + h / 2);
      arrow(x + w / 2, y + h * 0.2, x + w / 2, y + h * 0.4);
      break;
    case "casement":
      arrow(x + w, y, x, y + h / 2);
      arrow(x, y + h / 2, x + w, y + h);
      break;
    case "awning":
      arrow(x, y, x + w / 2, y + h);
      arrow(x + w / 2, y + h, x + w, y);
      break;
    case "hopper":
      arrow(x, y + h, x + w / 2, y);
      arrow(x + w / 2, y, x + w, y + h);
      break;
    case "glider":
      p.line(x + w / 2, y, x + w / 2, y + h);
      arrow(x + w * 0.6, y + h / 2, x + w * 0.85, y + h / 2);
      break;
    case "picture":
      p.stroke(GREEN, 1).rect(x + 8, y + 8, w - 16, h - 16, "S");
      break;
    case "bay-bow":
      p.line(x + w * 0.25, y, x + w * 0.25, y + h);
      p.line(x + w * 0.75, y, x + w * 0.75, y + h);
      break;
    case "garden":
      p.line(x, y + h * 0.7, x + w, y + h * 0.7);
      p.line(x + w * 0.5, y, x + w * 0.5, y + h * 0.7);
      break;
  }
}

/** Assembles pages into a PDF file. */
function writePdf(file: string, title: string, pages: Page[]) {
  const objects: (string | Buffer)[] = [];
  const add = (o: string | Buffer) => objects.push(o) && objects.length;
  const catalog = add(""); // placeholder
  const pagesId = add("");
  const f1 = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  const f2 = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>");
  const kids: number[] = [];
  pages.forEach((p, i) => {
    p.footer(i + 1, pages.length);
    const data = deflateSync(Buffer.from(p.ops.join("\n"), "latin1"));
    const stream = Buffer.concat([
      Buffer.from(`<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n`),
      data,
      Buffer.from("\nendstream"),
    ]);
    const content = add(stream);
    kids.push(
      add(
        `<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 ${W} ${H}] /Resources << /Font << /F1 ${f1} 0 R /F2 ${f2} 0 R >> >> /Contents ${content} 0 R >>`,
      ),
    );
  });
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesId} 0 R >>`;
  objects[pagesId - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${kids.length} >>`;
  const info = add(`<< /Title (${pdfText(title)}) /Author (${pdfText(company.name)}) /Producer (scripts/content-docs.ts) >>`);

  const chunks: Buffer[] = [Buffer.from("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  let offset = chunks[0]!.length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    const body = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), typeof o === "string" ? Buffer.from(o, "latin1") : o, Buffer.from("\nendobj\n")]);
    offsets.push(offset);
    offset += body.length;
    chunks.push(body);
  });
  const xref = [`xref\n0 ${objects.length + 1}\n`, "0000000000 65535 f \n", ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`)].join("");
  chunks.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${info} 0 R >>\nstartxref\n${offset}\n%%EOF\n`, "latin1"));
  mkdirSync(OUT, { recursive: true });
  writeFileSync(path.join(OUT, file), Buffer.concat(chunks));
  console.log(`wrote public/docs/${file}`);
}

// ── Windows catalog ─────────────────────────────────────────────────
{
  const cover = new Page().header("Replacement Window Catalog", "Eight styles, custom built to size and installed by our own crews");
  cover
    .para(
      `Since ${company.foundedText} our family has been fitting doors and windows in Michigan homes. This catalog walks you through the eight window styles we install, the glass packages that make them efficient, and what to expect from measurement to clean-up.`,
      { size: 12 },
    )
    .para("Every window we sell is:", { bold: true, gap: 4 })
    .bullets([
      "Custom built to the exact size of each opening - no gaps, no oversized trim.",
      "Made with multi-chambered vinyl frames welded at every corner.",
      "Glazed with Low-E insulating glass, argon filled, with warm-edge spacers.",
      "Installed by trained, insured employees - never subcontractors.",
      "Covered by a limited lifetime warranty on frames, sashes and insulating glass.",
    ])
    .para("Window styles in this catalog", { bold: true, size: 13, gap: 4 });
  cover.bullets(windowTypes.map((w) => w.name));
  cover.para(`Try any style on a photo of your home with the window designer: ${company.windowDesignerUrl}`, { size: 10, rgb: GREY });

  const stylePages: Page[] = [];
  for (let i = 0; i < windowTypes.length; i += 2) {
    const p = new Page().header("Window Styles", `${i / 2 + 1} of ${windowTypes.length / 2}`);
    for (const w of windowTypes.slice(i, i + 2)) {
      const top = p.y;
      drawWindow(p, w.slug, 54, top - 150, 150, 150);
      p.y = top;
      p.text(230, p.y, w.name, 18, true, GREEN);
      p.y -= 26;
      p.para(w.text, { x: 230, width: W - 284, size: 11 });
      p.bullets(
        [
          "Sizes made to order, from 16 to 96 inches wide",
          "White or almond interiors; 12 exterior colours",
          "Optional grilles between the glass and screens",
        ],
        230,
        W - 284,
      );
      p.y = Math.min(p.y, top - 170) - 30;
    }
    stylePages.push(p);
  }

  const glass = new Page().header("Glass, Colours and Installation", "Choosing the options that suit your home");
  glass.para("Glass packages", { bold: true, size: 13, gap: 4 }).table([
    { label: "Standard", value: "Double pane, Low-E coating, argon gas, warm-edge spacer" },
    { label: "Comfort", value: "Double pane with two Low-E coatings for sunny south and west walls" },
    { label: "Ultimate", value: "Triple pane, two Low-E coatings, krypton-argon blend - our quietest, warmest window" },
    { label: "Safety", value: "Tempered glass where building codes require it (near doors, tubs and floors)" },
    { label: "Privacy", value: "Obscure glass for bathrooms and street-facing rooms" },
  ]);
  glass.para("Installation, step by step", { bold: true, size: 13, gap: 4 }).bullets([
    "Free in-home consultation and precise measurement of every opening.",
    "Your windows are built to order, typically in four to six weeks.",
    "Our crew protects floors and furnishings, removes the old sashes and installs the new windows.",
    "We insulate and seal every gap, fit new trim and take the old windows away.",
    "A final walk-through with you, and a clean home when we leave.",
  ]);
  glass.para("Request a free quote", { bold: true, size: 13, gap: 4 }).para(
    `Call ${company.phone.display}, e-mail ${company.email}, or visit one of our four Michigan locations. A representative reaches out within ${company.responseTime} of every quote request.`,
  );
  writePdf("dover-windows-catalog.pdf", `${company.name} Window Catalog`, [cover, ...stylePages, glass]);
}

// ── Sectional door spec sheets ──────────────────────────────────────
const extra: Record<string, { label: string; value: string }[]> = {
  "D-165": [
    { label: "Exterior skin", value: "26-gauge galvanised steel, stucco embossed" },
    { label: "Interior skin", value: "27-gauge galvanised steel, white" },
    { label: "Insulation", value: "Foamed-in-place CFC-free polyurethane" },
    { label: "Springs", value: "Standard torsion springs rated about 10,000 cycles; 25,000, 50,000 and 100,000 cycle options" },
    { label: "Track", value: "2 or 3 inch; standard, high-lift and vertical lift" },
    { label: "Windows", value: "Insulated 1/2 inch glass or double-strength polycarbonate lites" },
    { label: "Finish colours", value: "White, brown, sandstone, grey, black; custom colours to order" },
    { label: "Warranty", value: "10 years on sections against rust-through and delamination" },
  ],
  "D-200": [
    { label: "Exterior skin", value: "24-gauge galvanised steel, stucco embossed" },
    { label: "Interior skin", value: "26-gauge galvanised steel, white" },
    { label: "Insulation", value: "Foamed-in-place CFC-free polyurethane" },
    { label: "Springs", value: "Standard torsion springs rated about 10,000 cycles; 25,000, 50,000 and 100,000 cycle options" },
    { label: "Track", value: "3 inch; standard, high-lift and vertical lift" },
    { label: "Wind load", value: "Reinforcement packages for exposed and lakeshore sites" },
    { label: "Windows", value: "Insulated 1 inch glass or full-view aluminium sections" },
    { label: "Finish colours", value: "White, brown, sandstone, grey, black; custom colours to order" },
    { label: "Warranty", value: "15 years on sections against rust-through and delamination" },
  ],
};

for (const m of sectionalModels) {
  const p = new Page().header(`${m.name} Sectional Door`, m.headline);
  p.para(m.text, { size: 12 });
  // Section profile: two steel skins around the foam core, with the tongue-and-groove joint.
  const x = 54;
  const top = p.y;
  const thick = m.name === "D-200" ? 44 : 36;
  const py = top - 30 - thick;
  p.fill([0.98, 0.9, 0.6]).stroke(GREEN, 2).rect(x, py, 220, thick, "B");
  p.fill(GREEN).rect(x, py, 220, 3).rect(x, py + thick - 3, 220, 3);
  p.text(x, py - 18, `Section profile: ${m.specs[0]!.value} thick`, 9.5, false, GREY);
  p.text(x + 240, top - 8, "Built to work as hard as your building:", 11, true);
  p.y = top - 26;
  p.bullets(["Thermal break between the skins", "Tongue-and-groove joints seal out wind", "High-cycle springs available"], x + 240, W - 54 - (x + 240));
  p.y = Math.min(p.y, py - 44);
  p.para("Specifications", { bold: true, size: 13, gap: 4 }).table([...m.specs, ...(extra[m.name] ?? [])]);
  p.para(
    `Specifications are typical and may change without notice. For a quote, shop drawings or installation details, call ${company.phone.display} or e-mail ${company.email}.`,
    { size: 9.5, rgb: GREY },
  );
  writePdf(path.basename(m.pdf.to), `${m.name} Sectional Door Spec Sheet`, [p]);
}
