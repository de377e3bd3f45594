import { createServer, type AddressInfo, type Server } from "node:net";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP peer for the mail tests (the `smtp-server` package, in
 * process): it keeps what it received, envelope and raw message.
 */
export type Received = { from: string; to: string[]; raw: string };

export type Peer = {
  server: SMTPServer;
  port: number;
  received: Received[];
  /** The most messages the peer was ever handed at the same time. */
  maxInFlight(): number;
};

/** `delayMs`: how long the peer takes to accept each message (a remote relay's pace). */
export function startPeer(port = 0, { delayMs = 0 } = {}): Promise<Peer> {
  const received: Received[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    // Room for the worker's pool (and two workers' pools) without refusals.
    maxClients: 50,
    onData(stream, session, callback) {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        setTimeout(() => {
          inFlight -= 1;
          callback();
        }, delayMs);
      });
    },
  });
  return new Promise((resolve, reject) => {
    server.on("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const address = (server as unknown as { server: Server }).server.address();
      resolve({
        server,
        port: typeof address === "object" && address ? address.port : port,
        received,
        maxInFlight: () => maxInFlight,
      });
    });
  });
}

export function stopPeer(server: SMTPServer): Promise<void> {
  return new Promise<void>((resolve) => server.close(() => resolve()));
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs = 15_000, everyMs = 50): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
