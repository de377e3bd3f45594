import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import type { MailAttachment } from "@db/schema";
import { env } from "~/lib/env.server";
import { clearSentBodies, enqueueMail } from "~/mail/outbox.server";
import { enqueueSubmissionMail, type CalendarInvite, type SubmittedForm } from "~/mail/submission-mail.server";
import { fileTransport, smtpTransport, type MailTransport } from "~/mail/transport.server";
import { startMailWorker } from "~/mail/worker.server";
import { createTestDatabase } from "../support/db";
import { startPeer, stopPeer, waitFor } from "./smtp-peer";
import { rows } from "./forms-support";

/**
 * Mail attachments end to end (issue 16 item 4): a residential booking's
 * visitor e-mail carries its calendar invitation from the outbox row to the
 * SMTP peer (and to the files the e2e tests read); the company's copy has
 * none; retention clears it with the body.
 */
let conn: Connection;
beforeAll(async () => {
  conn = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await conn?.close();
});
beforeEach(async () => {
  await conn.db.execute(sql`delete from outbox`);
  await conn.db.execute(sql`delete from rate_limits`);
});

const saturdayVisit: CalendarInvite = {
  uid: "service-request-31",
  title: "Dover Doors & Windows service visit",
  description: "Residential garage door service. Paid: $159.00 (Visa ending in 4242).",
  location: "12 Main St, Flint, MI 48502",
  date: "2027-01-09",
  startHour: 8,
  startMinute: 0,
  durationMinutes: 240,
};

function booking(overrides: Partial<SubmittedForm> = {}): SubmittedForm {
  return {
    noun: "residential service request",
    submission: { table: "service_requests", id: 31 },
    summary: [{ label: "Service date", value: "2027-01-09" }],
    name: "Jane Doe",
    email: "jane@example.com",
    photos: 0,
    page: "/request-service?type=residential",
    clientIp: "203.0.113.9",
    receipt: {
      subject: "Your receipt",
      title: "Thank you — your visit is booked",
      intro: "Hello Jane Doe, we charged $159.00 to your Visa ending in 4242.",
    },
    calendar: saturdayVisit,
    ...overrides,
  };
}

type StoredRow = {
  id: number;
  to: string;
  kind: string;
  text: string;
  attachments: string | null;
  type: string | null;
  cleared_at: unknown;
};
/** The rows as stored: `attachments` as its JSON text, and its JSON type (an array, never a string holding JSON). */
const outbox = () =>
  rows<StoredRow>(
    conn.db,
    'select id, "to", kind, text, attachments::text as attachments, jsonb_typeof(attachments) as type, cleared_at from outbox order by id',
  );

/** Starts a worker on the transport (it sends at once), waits until the outbox is sent, stops it. */
async function deliverAll(transport: MailTransport): Promise<void> {
  const w = await startMailWorker({
    conn,
    transport,
    from: "Dover Doors & Windows <no-reply@example.com>",
    pollMs: 50,
    maxAttempts: 3,
    retryBaseMs: 100,
  });
  try {
    await waitFor(async () => (await rows(conn.db, "select id from outbox where status <> 'sent'")).length === 0);
  } finally {
    await w.stop();
  }
}

/** The decoded body of the MIME part whose headers match `headers` (base64 or 7bit; CRLF or LF). */
function mimePart(raw: string, headers: RegExp): string {
  const parts = raw.replace(/\r\n/g, "\n").split(/\n--[^\n]+\n/);
  const part = parts.find((p) => headers.test(p.slice(0, p.indexOf("\n\n"))));
  if (!part) throw new Error(`no part matching ${headers}`);
  const head = part.slice(0, part.indexOf("\n\n"));
  const body = part.slice(part.indexOf("\n\n") + 2);
  return /Content-Transfer-Encoding: base64/i.test(head)
    ? Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")
    : body;
}

describe("enqueueSubmissionMail with a calendar invite", () => {
  it("puts service-visit.ics on the visitor's receipt only, as a JSON array", async () => {
    await conn.db.transaction((tx) => enqueueSubmissionMail(tx, booking()));
    const [company, visitor] = await outbox();
    expect(company).toMatchObject({ to: "info@example.com", kind: "company", attachments: null });
    expect(visitor).toMatchObject({ to: "jane@example.com", kind: "receipt", type: "array" });
    const attachments = JSON.parse(visitor!.attachments!) as MailAttachment[];
    expect(attachments).toHaveLength(1);
    expect(attachments[0]).toMatchObject({
      filename: "service-visit.ics",
      contentType: "text/calendar; charset=utf-8; method=REQUEST",
    });
    expect(attachments[0]!.content).toContain("DTSTART:20270109T130000Z\r\n");
    expect(attachments[0]!.content).toContain("UID:service-request-31@example.com\r\n");
    expect(attachments[0]!.content).toContain("ATTENDEE;RSVP=FALSE;");
  });

  it("a plain confirmation can carry it too; without `calendar` no row has an attachment", async () => {
    await conn.db.transaction((tx) => enqueueSubmissionMail(tx, booking({ receipt: undefined })));
    await conn.db.transaction((tx) =>
      enqueueSubmissionMail(tx, booking({ calendar: undefined, email: "joe@example.com" })),
    );
    expect((await outbox()).map((m) => [m.to, m.kind, m.attachments === null])).toEqual([
      ["info@example.com", "company", true],
      ["jane@example.com", "confirmation", false],
      ["info@example.com", "company", true],
      ["joe@example.com", "receipt", true],
    ]);
  });
});

describe("delivery with an attachment", () => {
  it("reaches the SMTP peer as an invitation attached once: one text/calendar REQUEST part named service-visit.ics", async () => {
    await conn.db.transaction((tx) => enqueueSubmissionMail(tx, booking()));
    const peer = await startPeer();
    try {
      await deliverAll(smtpTransport(`smtp://127.0.0.1:${peer.port}`));
    } finally {
      await stopPeer(peer.server);
    }
    expect(peer.received).toHaveLength(2);
    const visitor = peer.received.find((m) => m.to[0] === "jane@example.com")!;
    const company = peer.received.find((m) => m.to[0] === "info@example.com")!;
    expect(visitor.raw).toMatch(/^Content-Type: multipart\/mixed;/m);
    // Once: no text/calendar alternative of the body beside an application/ics copy (issue 38).
    expect(visitor.raw.match(/^Content-Type: (text\/calendar|application\/ics)/gm)).toHaveLength(1);
    expect(visitor.raw.match(/^Content-Disposition: attachment/gm)).toHaveLength(1);
    const ics = mimePart(
      visitor.raw,
      /^Content-Type: text\/calendar; charset=utf-8; method=REQUEST;\n name=service-visit\.ics$/m,
    );
    expect(mimePart(visitor.raw, /^Content-Disposition: attachment; filename=service-visit\.ics$/m)).toBe(ics);
    expect(ics).toMatch(/^BEGIN:VCALENDAR\r?\n/);
    expect(ics).toMatch(/^METHOD:REQUEST\r?$/m);
    expect(ics).toMatch(/^DTSTART:20270109T130000Z\r?$/m);
    expect(ics).toMatch(/^DTEND:20270109T170000Z\r?$/m);
    expect(ics).toMatch(/^LOCATION:12 Main St\\, Flint\\, MI 48502\r?$/m);
    // The receipt itself is still there, text and HTML.
    expect(mimePart(visitor.raw, /^Content-Type: text\/plain/m)).toContain("we charged $159.00");
    expect(company.raw).not.toMatch(/text\/calendar|\.ics/);
    expect(company.raw).not.toMatch(/multipart\/mixed/);
  });

  it("the files transport writes the .eml and the invitation beside it, byte for byte as stored", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mail-attachments-"));
    try {
      await conn.db.transaction((tx) => enqueueSubmissionMail(tx, booking()));
      const stored = JSON.parse((await outbox())[1]!.attachments!) as MailAttachment[];
      await deliverAll(fileTransport(dir));
      const files = readdirSync(dir).sort();
      expect(files.filter((f) => f.endsWith(".eml"))).toHaveLength(2);
      const ics = files.filter((f) => f.endsWith(".ics"));
      expect(ics).toHaveLength(1);
      expect(ics[0]).toMatch(/-service-visit\.ics$/);
      expect(readFileSync(path.join(dir, ics[0]!), "utf8")).toBe(stored[0]!.content);
      // Beside the visitor's .eml, which has it too.
      const eml = readFileSync(path.join(dir, ics[0]!.replace(/-service-visit\.ics$/, ".eml")), "utf8");
      expect(eml).toMatch(/^To: jane@example\.com$/m);
      expect(mimePart(eml, /filename=service-visit\.ics/)).toContain("DTSTART:20270109T130000Z");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("any other attachment goes as a plain attached file", async () => {
    await enqueueMail(conn.db, {
      to: "ada@example.com",
      subject: "Your notes",
      text: "Attached.",
      attachments: [
        { filename: "notes.txt", contentType: "text/plain; charset=utf-8", content: "Measure the opening twice." },
      ],
    });
    const peer = await startPeer();
    try {
      await deliverAll(smtpTransport(`smtp://127.0.0.1:${peer.port}`));
    } finally {
      await stopPeer(peer.server);
    }
    const raw = peer.received[0]!.raw;
    expect(raw).not.toContain("text/calendar");
    expect(mimePart(raw, /filename=notes\.txt/)).toContain("Measure the opening twice.");
  });
});

describe("retention", () => {
  it("clears a sent mail's attachments with its body", async () => {
    await conn.db.transaction((tx) => enqueueSubmissionMail(tx, booking()));
    await conn.db.execute(sql`update outbox set status = 'sent', sent_at = now() - interval '31 days'`);
    await clearSentBodies(conn.db, env().MAIL_RETENTION_DAYS);
    const mails = await outbox();
    expect(mails).toHaveLength(2);
    for (const mail of mails) {
      expect(mail).toMatchObject({ text: "", attachments: null });
      expect(mail.cleared_at).not.toBeNull();
    }
  });
});
