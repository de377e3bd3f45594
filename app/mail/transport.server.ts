import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";
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
export type MailMessage = { from: string; to: string; replyTo?: string | null; subject: string; text: string; html?: string | null };

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
      await transporter.sendMail({
        from: message.from,
        to: message.to,
        replyTo: message.replyTo ?? undefined,
        subject: message.subject,
        text: message.text,
        html: message.html ?? undefined,
      });
    },
    close: () => transporter.close(),
  };
}

export function fileTransport(folder: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  let counter = 0;
  return {
    description: `files in ${folder}`,
    async send(message) {
      const info = await transporter.sendMail({
        from: message.from,
        to: message.to,
        replyTo: message.replyTo ?? undefined,
        subject: message.subject,
        text: message.text,
        html: message.html ?? undefined,
      });
      mkdirSync(folder, { recursive: true });
      const file = path.join(folder, `${new Date().toISOString().replace(/[:.]/g, "-")}-${process.pid}-${++counter}.eml`);
      writeFileSync(file, info.message as Buffer);
      log.info({ file }, "mail written to file (MAIL_TRANSPORT=files)");
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
