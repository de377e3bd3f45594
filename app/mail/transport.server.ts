import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";

/**
 * Where mail goes: SMTP (SMTP_URL, nodemailer) or, in development when no
 * SMTP_URL is set, .eml files in DATA_DIR/mail (opened by any mail client).
 */
export type MailMessage = { from: string; to: string; replyTo?: string | null; subject: string; text: string; html?: string | null };

export interface MailTransport {
  readonly description: string;
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport(url, {});
  // Timeouts so a dead peer fails fast and the message is retried later.
  Object.assign(transporter.options, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
  const where = new URL(url);
  return {
    description: `smtp ${where.hostname}:${where.port || (where.protocol === "smtps:" ? 465 : 587)}`,
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
      log.info({ to: message.to, subject: message.subject, file }, "mail written to file (no SMTP_URL)");
    },
    close: () => transporter.close(),
  };
}

export function createMailTransport(): MailTransport {
  const e = env();
  if (e.SMTP_URL) return smtpTransport(e.SMTP_URL);
  if (e.NODE_ENV === "production" && e.DATABASE_URL) {
    log.warn("SMTP_URL is not set: outgoing mail is written to files in DATA_DIR/mail, not delivered");
  }
  return fileTransport(path.resolve(e.DATA_DIR.startsWith("memory://") ? "./.data" : e.DATA_DIR, "mail"));
}
