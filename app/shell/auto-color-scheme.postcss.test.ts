import postcss from "postcss";
import { describe, expect, it } from "vitest";
import { autoColorScheme, autoSelectors } from "./auto-color-scheme.postcss";

const run = async (css: string) => (await postcss([autoColorScheme()]).process(css, { from: undefined })).css;

describe("auto colour scheme twins", () => {
  it("adds an 'auto' twin under the matching media query right after each scheme rule", async () => {
    const css = await run(
      `:root{--a:1}[data-mantine-color-scheme="dark"]{--a:2}:root[data-mantine-color-scheme='light']{--a:1}.x{color:red}`,
    );
    expect(css).toBe(
      `:root{--a:1}[data-mantine-color-scheme="dark"]{--a:2}@media (prefers-color-scheme: dark){[data-mantine-color-scheme="auto"]{--a:2}}` +
        `:root[data-mantine-color-scheme='light']{--a:1}@media (prefers-color-scheme: light){:root[data-mantine-color-scheme="auto"]{--a:1}}.x{color:red}`,
    );
  });

  it("keeps only the selectors naming one scheme, inside other at-rules too, and twins nothing twice", async () => {
    const css = await run(
      `@media (min-width:2px){[data-mantine-color-scheme=dark] .y,[data-mantine-color-scheme=light] .z,.w{color:blue}}`,
    );
    expect(css).toContain(`@media (prefers-color-scheme: light){[data-mantine-color-scheme="auto"] .z{color:blue}}`);
    expect(css).toContain(`@media (prefers-color-scheme: dark){[data-mantine-color-scheme="auto"] .y{color:blue}}`);
    expect(css.match(/scheme="auto"/g)).toHaveLength(2);
    expect(await run(css)).toBe(await run(css)); // stable when run again over its own output
  });

  it("leaves the any-value attribute and mixed selectors alone", () => {
    expect(autoSelectors(["[data-mantine-color-scheme] .e"], "dark")).toEqual([]);
    expect(
      autoSelectors(["[data-mantine-color-scheme='dark'] [data-mantine-color-scheme='light'] .m"], "dark"),
    ).toEqual([]);
    expect(autoSelectors([":where([data-mantine-color-scheme='dark']) .c"], "dark")).toEqual([
      ':where([data-mantine-color-scheme="auto"]) .c',
    ]);
  });
});
