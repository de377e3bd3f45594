import { Writable } from "node:stream";
import type { RouterContextProvider, EntryContext, HandleErrorFunction } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { renderToPipeableStream } from "react-dom/server";
import { loggablePath } from "~/lib/secret-paths";
import { log } from "~/lib/log.server";
import { NonceContext } from "~/lib/nonce";
import { bootAfterFirstPaint } from "~/shell/boot-after-paint.server";
import { documentKey, rememberDocument, rememberedDocument } from "~/http/page-cache.server";
import { pageSecurityHeaders, requestNonce } from "~/http/security.server";

export const streamTimeout = 5_000;

// The server (server/app.ts) opens the database and starts background work
// when it starts, and imports its guards (cross-origin 403, page cache,
// security headers) from their modules: nothing is looked up here by name.

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // The request's one nonce, and the headers of a page that runs only scripts carrying it.
  const nonce = requestNonce(loadContext);
  for (const [name, value] of Object.entries(pageSecurityHeaders(nonce, responseHeaders)))
    responseHeaders.set(name, value);
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");

  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  // The same inputs give the same document: reuse a recent render with this
  // answer's nonce and captcha challenge swapped in (page-cache.server.ts).
  const renderedStatus = responseStatusCode;
  const key = documentKey(request, responseStatusCode, routerContext);
  const html = key ? rememberedDocument(key, nonce) : undefined;
  if (html) {
    responseHeaders.set("Content-Length", String(html.byteLength));
    responseHeaders.set("X-Page-Cache", "hit");
    return new Response(html, { headers: responseHeaders, status: responseStatusCode });
  }

  return new Promise<Response>((resolve, reject) => {
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);
    // Pages have no deferred data: wait for the whole document, which also lets
    // crawlers and no-JS visitors get complete HTML in one piece.
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        onAllReady() {
          // Everything is rendered: gather React's chunks into one body with a
          // known length, rather than passing each chunk through a Node stream
          // and then a web-stream adapter on its way to Express.
          const chunks: Buffer[] = [];
          const body = new Writable({
            write(chunk: Buffer, _encoding, callback) {
              chunks.push(chunk);
              callback();
            },
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              const document = Buffer.from(bootAfterFirstPaint(Buffer.concat(chunks).toString()));
              if (key && responseStatusCode === renderedStatus) rememberDocument(key, document.toString(), nonce);
              responseHeaders.set("Content-Length", String(document.byteLength));
              resolve(new Response(document, { headers: responseHeaders, status: responseStatusCode }));
              callback();
            },
          });
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          log.error({ err: error }, "render error");
        },
      },
    );
  });
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  // A 4xx that React Router answers itself (a POST to a page without a form,
  // an unknown route's data request) is the visitor's mistake, not the server's.
  if (isRouteErrorResponse(error) && error.status < 500) {
    log.info(
      { status: error.status, method: request.method, path: loggablePath(new URL(request.url).pathname) },
      "request refused",
    );
    return;
  }
  log.error({ err: error, path: loggablePath(new URL(request.url).pathname) }, "unhandled server error");
};
