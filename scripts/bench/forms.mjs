// What a page's form sends without JavaScript, read from its HTML: the contact, upload,
// checkout and soak measures post the site's forms as a visitor would.

/**
 * What a page's form sends without JavaScript: every named input's value as
 * rendered (honeypot, its timestamp, the submission key, the sum's signed
 * challenge) and the sum answered, as a visitor would.
 */
export function formDefaults(html) {
  // The page's lead form (it carries a submission key), not the first form of the page: the header's
  // colour-mode toggle is a post form too (docs/decisions/062), and its one field answered every
  // form-driven measure here with 400 ("Please complete the CAPTCHA.") since.
  const form =
    [...html.matchAll(/<form[^>]*method="post"[^>]*>([\s\S]*?)<\/form>/gi)]
      .map((m) => m[1])
      .find((body) => /name="submission_key"/.test(body)) ?? "";
  const fields = new Map();
  for (const [tag] of form.matchAll(/<input\b[^>]*>/gi)) {
    const type = (/\btype="([^"]*)"/i.exec(tag)?.[1] ?? "text").toLowerCase();
    if (["file", "submit", "button"].includes(type)) continue;
    // A box or a choice is sent as a browser sends it: only when checked, "on" without a value.
    const choice = type === "checkbox" || type === "radio";
    if (choice && !/\schecked(?:=""|\s|>|\/)/.test(tag)) continue;
    const name = /\bname="([^"]+)"/.exec(tag)?.[1];
    const value = /\bvalue="([^"]*)"/.exec(tag)?.[1] ?? (choice ? "on" : "");
    if (name)
      fields.set(
        name,
        value
          .replaceAll("&quot;", '"')
          .replaceAll("&#x27;", "'")
          .replaceAll("&lt;", "<")
          .replaceAll("&gt;", ">")
          .replaceAll("&amp;", "&"),
      );
  }
  const sum = /What is (\d+) \+ (\d+)\?/.exec(html.replace(/<!-- -->/g, ""));
  if (sum) fields.set("captcha_answer", String(Number(sum[1]) + Number(sum[2])));
  return fields;
}
