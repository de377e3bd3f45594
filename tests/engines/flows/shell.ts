import { fail, see, seeUrl, type Flow } from "../flow";
import { until } from "../driver";

const PANEL = 'nav[aria-label="Mobile"]';
const TOGGLE = '[data-testid="color-scheme-toggle"]';
const REVIEWS = '[data-testid="reviews-live"]';

/** Which review the carousel shows: its announcement names it ("Review 2 of 6, …"). */
const reviewShown = async (d: Parameters<Flow["run"]>[0]) => /^Review \d+/.exec(await d.text(REVIEWS))?.[0];

/**
 * The shell on a phone: the menu panel opened, a group unfolded, a link followed (the home page
 * runs no script); then, on a page that runs the app, the colour scheme switched to dark and back
 * and the footer's reviews paused (and staying still).
 */
export const shell: Flow = {
  name: "open the phone menu, switch the colour scheme, pause the reviews",
  async run(d, { shot }) {
    await d.goto("/");
    await d.waitFor(PANEL, { gone: true });
    await d.click('summary[aria-label="Menu"]');
    await d.waitFor(PANEL);
    await d.click({ within: PANEL, css: "summary", text: "Connect" });
    await d.click({ within: PANEL, css: "a", text: "About Us" });
    await seeUrl(d, /\/about-us$/);
    await d.waitFor(PANEL, { gone: true });
    await see(d, "h1", "About");

    // The colour scheme, on a page that runs the app (it has a form): system → light → dark (the page
    // turns dark), then back to the system's (the app's attribute names the scheme it resolved to).
    await d.goto("/contact");
    const scheme = () => d.attr("html", "data-mantine-color-scheme");
    const expectScheme = (want: string) =>
      until(`the page to be ${want}`, async () => {
        const now = await scheme();
        if (now !== want) throw new Error(`it is ${now}`);
        return true;
      });
    await d.waitFor(TOGGLE);
    if ((await d.attr(TOGGLE, "data-scheme")) !== "auto") fail("the colour scheme does not start as the system's");
    await d.click(TOGGLE);
    await expectScheme("light");
    await d.click(TOGGLE);
    await expectScheme("dark");
    const label = await d.attr(TOGGLE, "aria-label");
    if (label !== "Colour scheme: dark. Switch to system") fail(`the toggle says "${label}" in the dark`);
    await d.click(TOGGLE);
    // The system's again, which is light in these headless browsers.
    await expectScheme("light");
    if ((await d.attr(TOGGLE, "data-scheme")) !== "auto")
      fail("the third click did not go back to the system's scheme");

    // The footer's reviews (they load as the visitor nears them): they turn on their own; paused, they stay on one review.
    await shot("reviews", ".review-carousel-frame");
    await d.waitFor(REVIEWS, { timeout: 15_000 });
    const first = await reviewShown(d);
    await until(
      "the reviews to turn on their own",
      async () => ((await reviewShown(d)) !== first ? true : undefined),
      12_000,
    );
    await d.click({ css: "button", text: "Pause reviews" });
    await see(d, '[data-testid="reviews-play-pause"]', "Play reviews");
    const paused = await reviewShown(d);
    await new Promise((resolve) => setTimeout(resolve, 4000)); // more than one turn (3 s)
    if ((await reviewShown(d)) !== paused) fail("the reviews went on turning after Pause");
    await d.click({ css: "button", text: "Play reviews" });
    await see(d, '[data-testid="reviews-play-pause"]', "Pause reviews");
  },
};
