import net from "node:net";

/**
 * HTTP spoken by hand over a TCP socket (node:net), for requests no HTTP
 * client will send: a Host that is not a host name, no Host at all, an
 * absolute-form target, a body streamed until the server answers.
 */
export type RawAnswer = {
  /** 0 when the server closed the connection without answering. */
  status: number;
  headers: Record<string, string>;
  /** Every byte the server sent (status line and headers included). */
  bytes: number;
  /** The first 256 KB of what the server sent after its final headers (latin1). */
  body: string;
  /** How many body bytes were written before the server answered or closed. */
  bodyBytesSent: number;
  /** A socket error seen on the way (EPIPE, ECONNRESET after an early answer), if any. */
  error?: string;
};

export type RawRequest = {
  port: number;
  /** The request line and headers, without the blank line that ends them. */
  head: string;
  /** The body, produced lazily; writing stops as soon as the server answers or closes. */
  body?: Iterable<Buffer | string>;
  /** The local address to connect from (any 127.x.y.z is this machine: a distinct client). */
  localAddress?: string;
  /** Called once the head and the first body chunk are out (e.g. to send a signal mid-request). */
  afterFirstChunk?: () => Promise<void>;
  timeoutMs?: number;
};

const KEEP = 256 * 1024;

export function rawRequest(req: RawRequest): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect({ port: req.port, host: "127.0.0.1", localAddress: req.localAddress });
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let bytes = 0;
    let answered = false;
    let closed = false;
    let bodyBytesSent = 0;
    let error: string | undefined;

    socket.on("data", (chunk: Buffer) => {
      answered = true;
      bytes += chunk.length;
      if (keptBytes < KEEP) {
        kept.push(chunk);
        keptBytes += chunk.length;
      }
    });
    socket.on("error", (e: NodeJS.ErrnoException) => {
      error ??= e.code ?? e.message;
    });
    const timer = setTimeout(() => {
      error ??= "timeout";
      socket.destroy();
    }, req.timeoutMs ?? 30_000);
    socket.on("close", () => {
      closed = true;
      clearTimeout(timer);
      // Interim answers (100 Continue) come before the one that counts.
      const all = Buffer.concat(kept)
        .toString("latin1")
        .replace(/^(?:HTTP\/1\.[01] 1\d\d[^\r]*\r\n(?:[^\r]+\r\n)*\r\n)+/, "");
      const end = all.indexOf("\r\n\r\n");
      const headLines = (end === -1 ? all : all.slice(0, end)).split("\r\n");
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(headLines[0] ?? "")?.[1] ?? 0);
      const headers: Record<string, string> = {};
      for (const line of headLines.slice(1)) {
        const colon = line.indexOf(":");
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status, headers, bytes, body: end === -1 ? "" : all.slice(end + 4), bodyBytesSent, error });
    });

    const write = (chunk: Buffer | string) =>
      new Promise<void>((done) => {
        if (closed || socket.destroyed) return done();
        if (socket.write(chunk)) return done();
        const finish = () => {
          socket.off("drain", finish);
          socket.off("close", finish);
          done();
        };
        socket.once("drain", finish);
        socket.once("close", finish);
      });

    socket.once("connect", async () => {
      await write(`${req.head}\r\n\r\n`);
      let first = true;
      for (const chunk of req.body ?? []) {
        if (answered || closed) break;
        await write(chunk);
        bodyBytesSent += Buffer.byteLength(chunk);
        if (first) {
          first = false;
          await req.afterFirstChunk?.();
        }
      }
    });
  });
}

/** `chunks` as a Transfer-Encoding: chunked body (each chunk framed, then the last, empty one). */
export function* chunked(chunks: Iterable<Buffer | string>): Generator<Buffer> {
  for (const chunk of chunks) {
    const bytes = Buffer.from(chunk);
    if (bytes.length === 0) continue;
    yield Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from("\r\n")]);
  }
  yield Buffer.from("0\r\n\r\n");
}

/** `total` bytes of `fill`, in pieces of `size` (made as they are asked for, never all at once). */
export function* repeated(fill: string, total: number, size = 64 * 1024): Generator<Buffer> {
  const piece = Buffer.alloc(size, fill);
  for (let sent = 0; sent < total; sent += size) yield sent + size <= total ? piece : piece.subarray(0, total - sent);
}

/** A local address of its own (127.a.b.c): the server sees a client no other test is. */
export function freshLoopback(): string {
  const n = () => 1 + Math.floor(Math.random() * 250);
  return `127.${n()}.${n()}.${n()}`;
}
