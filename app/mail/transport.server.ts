import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer, { type SendMailOptions } from "nodemailer";
import type { MailAttachment } from "@db/schema";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";

/**
 * Where mail goes, chosen by MAIL_TRANSPORT: `smtp` (SMTP_URL, nodemailer's
 * pooled SMTP) or `files` (.eml files in DATA_DIR/mail, opened by any mail
 * client). Unset: smtp when SMTP_URL is set, files otherwise. Production on
 * DATABASE_URL does not start with files unless MAIL_TRANSPORT=files says so
 * (env.server.ts): files on a deployed machine's disk are lost at the next
 * deploy, so that is never a silent fallback.
 */
export type MailMessage = {
  from: string;
  to: string;
  replyTo?: string | null;
  subject: string;
  text: string;
  html?: string | null;
  attachments?: MailAttachment[] | null;
  /**
   * The Message-ID header (`<…@…>`). The worker names each outbox row's mail once, so a retry of
   * a mail whose first send did arrive carries the same id and the recipient's client can tell it
   * is the same message; nodemailer makes a random one when it is left out.
   */
  messageId?: string;
};

export interface MailTransport {
  readonly description: string;
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * How many messages the worker keeps in flight, and so how many SMTP
 * connections the pool opens at most: enough to hide a peer's per-message
 * round trips (a backlog drains at several times one connection's pace)
 * without looking like a flood to the relay.
 */
export const MAIL_CONCURRENCY = 5;

/**
 * The message as nodemailer takes it. Every attachment goes once, as a part of its own; a
 * calendar invitation (text/calendar with a method) is one part `text/calendar; method=REQUEST`
 * (or CANCEL) named `service-visit.ics`, which is iMIP's form (RFC 6047 §2.4: a text/calendar
 * part with its method, alternative or not): Gmail, Outlook and Apple Mail offer it as an
 * invitation, any other client as a file to open. Nodemailer's `icalEvent` is not used: it sends
 * the event twice, as a text/calendar alternative of the body and again as an application/ics
 * attachment, and clients listed both (issue 38; docs/decisions/071-reminders-and-invitation.md).
 */
export function nodemailerMessage(message: MailMessage): SendMailOptions {
  return {
    from: message.from,
    to: message.to,
    replyTo: message.replyTo ?? undefined,
    subject: message.subject,
    messageId: message.messageId,
    text: message.text,
    html: message.html ?? undefined,
    attachments: (message.attachments ?? []).map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      content: a.content,
      contentDisposition: "attachment" as const,
    })),
  };
}

export function smtpTransport(url: string, { maxConnections = MAIL_CONCURRENCY } = {}): MailTransport {
  // Pooled: connections stay open between messages (no TCP + EHLO + AUTH per
  // mail), up to maxConnections at once; the URL's settings win over these.
  const transporter = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections,
    // Timeouts so a dead peer fails fast and the message is retried later.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  const where = new URL(url);
  return {
    description: `smtp ${where.hostname}:${where.port || (where.protocol === "smtps:" ? 465 : 587)} (pool of ${maxConnections})`,
    async send(message) {
      await transporter.sendMail(nodemailerMessage(message));
    },
    close: () => transporter.close(),
  };
}

export function fileTransport(folder: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  let counter = 0;
  // Asynchronous writes: the server keeps answering requests while the disk works. The folder is
  // made when a write finds it missing (at the first mail, or after someone removed it), not
  // before every mail: a mkdir per message was ~2% of the server's CPU under the contact bench.
  async function write(file: string, data: string | Buffer): Promise<void> {
    try {
      await writeFile(file, data);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      await mkdir(folder, { recursive: true });
      await writeFile(file, data);
    }
  }
  return {
    description: `files in ${folder}`,
    async send(message) {
      const info = await transporter.sendMail(nodemailerMessage(message));
      const base = path.join(folder, `${new Date().toISOString().replace(/[:.]/g, "-")}-${process.pid}-${++counter}`);
      await write(`${base}.eml`, info.message as Buffer);
      // Each attachment also as a file of its own beside the .eml (an end-to-end test, or a developer,
      // opens the invitation without decoding MIME); basename keeps a stored name inside the folder.
      for (const attachment of message.attachments ?? [])
        await write(`${base}-${path.basename(attachment.filename)}`, attachment.content);
      log.info(
        { file: `${base}.eml`, attachments: message.attachments?.length ?? 0 },
        "mail written to file (MAIL_TRANSPORT=files)",
      );
    },
    close: () => transporter.close(),
  };
}

/** The transport the settings ask for (env() has already refused an impossible combination). */
export function createMailTransport(): MailTransport {
  const e = env();
  const kind = e.MAIL_TRANSPORT ?? (e.SMTP_URL ? "smtp" : "files");
  if (kind === "smtp") {
    if (!e.SMTP_URL) throw new Error("MAIL_TRANSPORT=smtp needs SMTP_URL");
    return smtpTransport(e.SMTP_URL);
  }
  return fileTransport(path.resolve(e.DATA_DIR.startsWith("memory://") ? "./.data" : e.DATA_DIR, "mail"));
}
