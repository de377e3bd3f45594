/** Small helpers to read server-rendered HTML in request-level tests. */
export function decode(s: string): string {
  return s
    .replace(/&amp;/g, "&")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");
}

export function titleOf(html: string): string | undefined {
  const m = /<title>([^<]*)<\/title>/.exec(html);
  return m ? decode(m[1]!) : undefined;
}

export function h1s(html: string): string[] {
  return [...html.matchAll(/<h1\b[^>]*>([\s\S]*?)<\/h1>/g)].map((m) => decode(m[1]!.replace(/<[^>]+>/g, "").trim()));
}

export function attrOf(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? decode(m[1]!) : undefined;
}

export function tags(html: string, name: string): string[] {
  return [...html.matchAll(new RegExp(`<${name}\\b[^>]*>`, "g"))].map((m) => m[0]);
}

export function metaContent(html: string, key: string): string | undefined {
  const tag = tags(html, "meta").find((t) => attrOf(t, "name") === key || attrOf(t, "property") === key);
  return tag ? attrOf(tag, "content") : undefined;
}

export function canonicalOf(html: string): string | undefined {
  const tag = tags(html, "link").find((t) => attrOf(t, "rel") === "canonical");
  return tag ? attrOf(tag, "href") : undefined;
}

export function jsonLd(html: string): unknown[] {
  return [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map((m) =>
    JSON.parse(m[1]!),
  );
}

/** Every URL a page makes the browser load or offers to follow: links, scripts, styles, images, media, social images. */
export function referencedUrls(html: string): string[] {
  const urls: string[] = [];
  for (const [tag, attrs] of [
    ["a", ["href"]],
    ["link", ["href"]],
    ["script", ["src"]],
    ["img", ["src", "srcset"]],
    ["source", ["src", "srcset"]],
    ["video", ["src", "poster"]],
    ["track", ["src"]],
  ] as const) {
    for (const t of tags(html, tag)) {
      for (const a of attrs) {
        const v = attrOf(t, a);
        if (!v) continue;
        if (a === "srcset") urls.push(...v.split(",").map((part) => part.trim().split(/\s+/)[0]!));
        else urls.push(v);
      }
    }
  }
  for (const key of ["og:image", "twitter:image", "og:url"]) {
    const v = metaContent(html, key);
    if (v) urls.push(v);
  }
  return urls;
}
