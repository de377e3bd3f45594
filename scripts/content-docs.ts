/**
 * Writes the downloadable PDFs of the content pages into public/docs (the windows catalog and the
 * D-165 / D-200 sectional door spec sheets) with pdfkit, from the same data the pages show.
 * Rerun after changing that data, and commit the PDFs (docs/decisions/046-pdf-library.md):
 *
 *   npx tsx scripts/content-docs.ts
 */
import { createWriteStream, mkdirSync } from "node:fs";
import path from "node:path";
import { finished } from "node:stream/promises";
import PDFDocument from "pdfkit";
import { company } from "../app/lib/company";
import { windowTypes } from "../app/content/data/windows";
import { sectionalModels } from "../app/content/pages/commercial";

type Doc = PDFKit.PDFDocument;
type Row = { label: string; value: string };
const OUT = path.resolve("public/docs");
const [W, H, M] = [612, 792, 54]; // US Letter and its margin, points
const [GREEN, TINT, GREY, LINE, INK] = ["#1d5c3a", "#eef6f1", "#4d545c", "#ccd6cf", "#1a1f1c"];
const CREATED = new Date("2026-01-01T00:00:00Z"); // fixed: the same data gives the same bytes

/** One PDF: `draw` lays out the pages; every page then gets the contact line and "Page n of N". */
async function writePdf(file: string, title: string, draw: (doc: Doc) => void) {
  const doc = new PDFDocument({
    size: "LETTER",
    margins: { top: M, bottom: 72, left: M, right: M },
    bufferPages: true,
    autoFirstPage: false,
    info: { Title: title, Author: company.name, CreationDate: CREATED },
  });
  mkdirSync(OUT, { recursive: true });
  const out = doc.pipe(createWriteStream(path.join(OUT, file)));
  draw(doc);
  const { count } = doc.bufferedPageRange();
  const contact = `${company.name} · ${company.phone.display} · ${company.email} · Family owned since ${company.foundedText}`;
  for (let i = 0; i < count; i++) {
    doc.switchToPage(i);
    doc.page.margins.bottom = 0; // writing below the bottom margin would otherwise add a page
    doc
      .moveTo(M, H - 50)
      .lineTo(W - M, H - 50)
      .lineWidth(0.6)
      .stroke(LINE);
    doc.font("Helvetica").fontSize(8.5).fillColor(GREY);
    doc.text(contact, M, H - 42, { lineBreak: false });
    doc.text(`Page ${i + 1} of ${count}`, M, H - 42, { width: W - 2 * M, align: "right" });
  }
  doc.end();
  await finished(out);
  console.log(`wrote public/docs/${file}`);
}

/** A new page with the green title band; the cursor is left below it. */
function page(doc: Doc, title: string, subtitle: string) {
  doc.addPage().rect(0, 0, W, 110).fill(GREEN);
  doc
    .font("Helvetica-Bold")
    .fontSize(10)
    .fillColor("white")
    .text(company.name, M, 24, { width: W - 2 * M, align: "right" });
  doc.fontSize(24).text(title, M, 36);
  doc.font("Helvetica").fontSize(12).fillColor("#e6f5eb").text(subtitle, M, 68);
  doc.x = M;
  doc.y = 140;
}

function heading(doc: Doc, text: string) {
  doc.moveDown(0.6).font("Helvetica-Bold").fontSize(13).fillColor(INK).text(text).moveDown(0.3);
}

function para(doc: Doc, text: string, size = 11, color = INK, x = M) {
  doc
    .font("Helvetica")
    .fontSize(size)
    .fillColor(color)
    .text(text, x, doc.y, { width: W - M - x, lineGap: 3 })
    .moveDown(0.5);
}

function bullets(doc: Doc, items: string[], x = M) {
  doc.font("Helvetica").fontSize(10.5).fillColor(INK);
  doc.list(items, x, doc.y, { width: W - M - x - 14, bulletRadius: 2.5, textIndent: 14, lineGap: 2, paragraphGap: 3 });
  doc.moveDown(0.5);
}

/** A two-column label / value table, labels bold on a tint. */
function table(doc: Doc, rows: Row[]) {
  doc.fontSize(10.5).fillColor(INK);
  doc.table({
    columnStyles: [{ width: (W - 2 * M) * 0.38, backgroundColor: TINT }, "*"],
    defaultStyle: { border: 0.6, borderColor: LINE, padding: [5, 8] },
    data: rows.map((r) => [
      { text: r.label, font: { src: "Helvetica-Bold" } },
      { text: r.value, font: { src: "Helvetica" } },
    ]),
  });
  doc.x = M;
  doc.moveDown(1);
}

/** Schematic drawings of each window type (sashes, opening direction) as SVG paths in a 100 × 100 frame. */
const sketches: Record<string, string> = {
  "double-hung": "M0 50H100M50 80V60",
  casement: "M100 100L0 50L100 0",
  awning: "M0 100L50 0L100 100",
  hopper: "M0 0L50 100L100 0",
  glider: "M50 0V100M60 50H85",
  picture: "M6 6H94V94H6Z",
  "bay-bow": "M25 0V100M75 0V100",
  garden: "M0 30H100M50 30V100",
};

function drawWindow(doc: Doc, slug: string, x: number, y: number, size: number) {
  doc.lineWidth(3).rect(x, y, size, size).fillAndStroke("#dbebf7", GREEN);
  const scale = size / 100;
  doc
    .save()
    .translate(x, y)
    .scale(scale)
    .path(sketches[slug] ?? "")
    .lineWidth(1.5 / scale)
    .stroke(GREEN)
    .restore();
}

// ── Windows catalog ─────────────────────────────────────────────────
await writePdf("dover-windows-catalog.pdf", `${company.name} Window Catalog`, (doc) => {
  page(doc, "Replacement Window Catalog", "Eight styles, custom built to size and installed by our own crews");
  para(
    doc,
    `Since ${company.foundedText} our family has been fitting doors and windows in Michigan homes. This catalog walks you through the eight window styles we install, the glass packages that make them efficient, and what to expect from measurement to clean-up.`,
    12,
  );
  heading(doc, "Every window we sell is:");
  bullets(doc, [
    "Custom built to the exact size of each opening – no gaps, no oversized trim.",
    "Made with multi-chambered vinyl frames welded at every corner.",
    "Glazed with Low-E insulating glass, argon filled, with warm-edge spacers.",
    "Installed by trained, insured employees – never subcontractors.",
    "Covered by a limited lifetime warranty on frames, sashes and insulating glass.",
  ]);
  heading(doc, "Window styles in this catalog");
  bullets(
    doc,
    windowTypes.map((w) => w.name),
  );
  para(doc, `Try any style on a photo of your home with the window designer: ${company.windowDesignerUrl}`, 10, GREY);

  for (let i = 0; i < windowTypes.length; i += 2) {
    page(doc, "Window Styles", `${i / 2 + 1} of ${windowTypes.length / 2}`);
    for (const w of windowTypes.slice(i, i + 2)) {
      const top = doc.y;
      drawWindow(doc, w.slug, M, top, 150);
      doc.font("Helvetica-Bold").fontSize(18).fillColor(GREEN).text(w.name, 230, top).moveDown(0.3);
      para(doc, w.text, 11, INK, 230);
      bullets(
        doc,
        [
          "Sizes made to order, from 16 to 96 inches wide",
          "White or almond interiors; 12 exterior colours",
          "Optional grilles between the glass and screens",
        ],
        230,
      );
      doc.x = M;
      doc.y = Math.max(doc.y, top + 170) + 30;
    }
  }

  page(doc, "Glass, Colours and Installation", "Choosing the options that suit your home");
  heading(doc, "Glass packages");
  table(doc, [
    { label: "Standard", value: "Double pane, Low-E coating, argon gas, warm-edge spacer" },
    { label: "Comfort", value: "Double pane with two Low-E coatings for sunny south and west walls" },
    { label: "Ultimate", value: "Triple pane, two Low-E coatings, krypton-argon blend – our quietest, warmest window" },
    { label: "Safety", value: "Tempered glass where building codes require it (near doors, tubs and floors)" },
    { label: "Privacy", value: "Obscure glass for bathrooms and street-facing rooms" },
  ]);
  heading(doc, "Installation, step by step");
  bullets(doc, [
    "Free in-home consultation and precise measurement of every opening.",
    "Your windows are built to order, typically in four to six weeks.",
    "Our crew protects floors and furnishings, removes the old sashes and installs the new windows.",
    "We insulate and seal every gap, fit new trim and take the old windows away.",
    "A final walk-through with you, and a clean home when we leave.",
  ]);
  heading(doc, "Request a free quote");
  para(
    doc,
    `Call ${company.phone.display}, e-mail ${company.email}, or visit one of our four Michigan locations. A representative reaches out within ${company.responseTime} of every quote request.`,
  );
});

// ── Sectional door spec sheets ──────────────────────────────────────
const springs = "Standard torsion springs rated about 10,000 cycles; 25,000, 50,000 and 100,000 cycle options";
const finish = "White, brown, sandstone, grey, black; custom colours to order";
const extra: Record<string, Row[]> = {
  "D-165": [
    { label: "Exterior skin", value: "26-gauge galvanised steel, stucco embossed" },
    { label: "Interior skin", value: "27-gauge galvanised steel, white" },
    { label: "Insulation", value: "Foamed-in-place CFC-free polyurethane" },
    { label: "Springs", value: springs },
    { label: "Track", value: "2 or 3 inch; standard, high-lift and vertical lift" },
    { label: "Windows", value: "Insulated 1/2 inch glass or double-strength polycarbonate lites" },
    { label: "Finish colours", value: finish },
    { label: "Warranty", value: "10 years on sections against rust-through and delamination" },
  ],
  "D-200": [
    { label: "Exterior skin", value: "24-gauge galvanised steel, stucco embossed" },
    { label: "Interior skin", value: "26-gauge galvanised steel, white" },
    { label: "Insulation", value: "Foamed-in-place CFC-free polyurethane" },
    { label: "Springs", value: springs },
    { label: "Track", value: "3 inch; standard, high-lift and vertical lift" },
    { label: "Wind load", value: "Reinforcement packages for exposed and lakeshore sites" },
    { label: "Windows", value: "Insulated 1 inch glass or full-view aluminium sections" },
    { label: "Finish colours", value: finish },
    { label: "Warranty", value: "15 years on sections against rust-through and delamination" },
  ],
};

for (const m of sectionalModels) {
  await writePdf(path.basename(m.pdf.to), `${m.name} Sectional Door Spec Sheet`, (doc) => {
    page(doc, `${m.name} Sectional Door`, m.headline);
    para(doc, m.text, 12);
    // Section profile: two steel skins around the foam core.
    const top = doc.y + 10;
    const thick = m.name === "D-200" ? 44 : 36;
    doc.lineWidth(2).rect(M, top, 220, thick).fillAndStroke("#fae699", GREEN);
    doc
      .rect(M, top, 220, 3)
      .rect(M, top + thick - 3, 220, 3)
      .fill(GREEN);
    doc
      .font("Helvetica")
      .fontSize(9.5)
      .fillColor(GREY)
      .text(`Section profile: ${m.specs[0]!.value} thick`, M, top + thick + 8);
    const below = doc.y;
    doc
      .font("Helvetica-Bold")
      .fontSize(11)
      .fillColor(INK)
      .text("Built to work as hard as your building:", M + 240, top)
      .moveDown(0.4);
    bullets(
      doc,
      ["Thermal break between the skins", "Tongue-and-groove joints seal out wind", "High-cycle springs available"],
      M + 240,
    );
    doc.x = M;
    doc.y = Math.max(doc.y, below);
    heading(doc, "Specifications");
    table(doc, [...m.specs, ...(extra[m.name] ?? [])]);
    para(
      doc,
      `Specifications are typical and may change without notice. For a quote, shop drawings or installation details, call ${company.phone.display} or e-mail ${company.email}.`,
      9.5,
      GREY,
    );
  });
}
