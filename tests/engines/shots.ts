import type { Target } from "./driver";
import { see, type Flow } from "./flow";

/**
 * Pages each engine photographs at 390 px, besides what the flows shoot on their way (the
 * calendar, the cart under the header, the refused out-of-area booking), into
 * `test-results/engines/<engine>/<name>.png`. A page still to come is one more line here;
 * `heading` is what its h1 says.
 */
export const PAGES_TO_SHOOT: { name: string; path: string; heading: string; target?: Target }[] = [
  { name: "home", path: "/", heading: "Increase Your Home's Value" },
  { name: "service-area", path: "/service-area", heading: "Our Service Areas" },
  // The policies (issue 38 item 7).
  { name: "privacy", path: "/privacy", heading: "Privacy Notice" },
  { name: "terms", path: "/terms", heading: "Terms of Sale and Service" },
];

/** The pages above, each opened, its heading read, and shot (its first screen, or `target` at the top). */
export const pages: Flow = {
  name: "pages to shoot",
  async run(d, { shot }) {
    for (const page of PAGES_TO_SHOOT) {
      await d.goto(page.path);
      await see(d, "h1", page.heading);
      await shot(page.name, page.target);
    }
  },
};
