import { z } from "zod";

// The project's one door to zod (ESLint refuses `from "zod"` elsewhere in app/). No code
// generation: zod's faster object parser is compiled with `new Function`, and merely probing
// for it (when a schema is built) is an 'unsafe-eval' violation of the page's
// Content-Security-Policy, reported in the browser's Issues panel and by Lighthouse (best
// practices 96 on the cart and the checkout, whose cart schema imported zod directly). Any module
// that builds a schema imports zod from here, so this runs before any schema is built, in the
// browser and on the server.
z.config({ jitless: true });

export { z };
