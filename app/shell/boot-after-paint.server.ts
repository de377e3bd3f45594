/**
 * The page's JavaScript starts after its first paint (docs/decisions/044).
 *
 * React Router's <Scripts> asks for every module of the page at once: a
 * `<link rel="modulepreload">` for each (React hoists them into <head>, where
 * the browser fetches them beside the render-blocking stylesheet) and one inline
 * module script whose static imports load the route modules. On a slow phone
 * connection those ~110 KB compete with the stylesheet and the banner image for
 * the first paint, while the page works without them (every form posts as
 * HTML). So the document is rewritten once it is rendered (before the page
 * cache keeps it): the preload links go, and the inline module first waits for
 * the first paint, then adds the same preload links and imports the same
 * modules in parallel. Nothing else changes: the manifest, the route modules'
 * table and the entry's `import()` stay as React Router wrote them.
 *
 * Written against React Router 7.18's output: when the output does not have
 * that shape (an upgrade changed it), the document is left as it is, and the
 * unit test that renders a real page fails.
 */
const PRELOAD_LINK = /<link rel="modulepreload" href="([^"]+)"[^>]*\/>/g;
const BOOT_SCRIPT = /(<script nonce="[^"]*" type="module" async="">);\n((?:import \* as \w+ from "[^"]+";\n)+)/;
const STATIC_IMPORT = /import \* as (\w+) from "([^"]+)";/g;

export function bootAfterFirstPaint(html: string): string {
  const hrefs = [...html.matchAll(PRELOAD_LINK)].map((m) => m[1]);
  const boot = BOOT_SCRIPT.exec(html);
  if (!boot || hrefs.length === 0) return html;
  const imports = [...boot[2]!.matchAll(STATIC_IMPORT)];
  const prelude = [
    // A page opened in a background tab paints nothing: it starts at once.
    `await new Promise((go) => document.visibilityState === "hidden" ? setTimeout(go) : requestAnimationFrame(() => setTimeout(go)));`,
    `const nonce = document.querySelector("script[nonce]")?.nonce ?? "";`,
    `for (const href of ${JSON.stringify(hrefs)}) document.head.append(Object.assign(document.createElement("link"), { rel: "modulepreload", href, nonce }));`,
    `const [${imports.map((m) => m[1]).join(", ")}] = await Promise.all([${imports.map((m) => `import(${JSON.stringify(m[2])})`).join(", ")}]);`,
  ].join("\n");
  return html.replace(PRELOAD_LINK, "").replace(BOOT_SCRIPT, `${boot[1]};\n${prelude}\n`);
}
