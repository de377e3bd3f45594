// /shop?q=…: a different search on every request. Nothing cached can answer: every
// request is a database query and a render. The searches are pieces of the catalogue's
// names (so they find products), each request's letters cased its own way (so no two
// addresses are equal).
import { base } from "./args.mjs";
import { load, measured } from "./load.mjs";

/** Pieces (3–6 letters) of the catalogue's product names, each once. */
async function searchPieces() {
  let names = [];
  try {
    names = (await (await fetch(`${base}/api/store/inventory/list`)).json()).map((p) => p.name.toLowerCase());
  } catch {}
  return [
    ...new Set(names.flatMap((n) => [3, 4, 5, 6].flatMap((k) => [...n].map((_, i) => n.slice(i, i + k).trim())))),
  ].filter((piece) => piece.length >= 3 && /^[a-z0-9][a-z0-9 -]*[a-z0-9]$/.test(piece));
}

/** The uncached search under load; undefined when the catalogue gives nothing to search for. */
export async function measureShopSearch() {
  const pieces = await searchPieces();
  const cased = (piece, variant) => [...piece].map((c, i) => ((variant >> i) & 1 ? c.toUpperCase() : c)).join("");
  if (pieces.length === 0) return undefined;
  let n = 0;
  return measured(() =>
    load(`${base}/shop`, {
      requests: [
        {
          setupRequest: (req) => {
            const q = cased(pieces[n % pieces.length], Math.floor(n / pieces.length));
            n++;
            return { ...req, path: `/shop?${new URLSearchParams({ q })}` };
          },
        },
      ],
    }),
  );
}
