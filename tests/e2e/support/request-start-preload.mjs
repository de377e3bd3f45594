// Preloaded (node --import) into a server process started by a test
// (startOwnServer with `requestStarts: true`): every request Node's HTTP server
// hands to the app is announced on stderr, as the app receives it (Node's
// "http.server.request.start" channel is published just before the "request"
// event, in the same turn). A test waits for the line instead of guessing how
// long a request takes to arrive.
import diagnosticsChannel from "node:diagnostics_channel";

diagnosticsChannel.subscribe("http.server.request.start", ({ request }) => {
  process.stderr.write(`[e2e] request started: ${request.method} ${request.url}\n`);
});
