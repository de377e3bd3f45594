// The cached pages under load: home, /shop and a product page (the catalogue's first),
// requests/s, p50/p99 latency and the server's CPU ms per request at 50 connections.
import { base } from "./args.mjs";
import { load, measured, row } from "./load.mjs";

/** The first product's page (/product/1 when the catalogue cannot be read). */
async function firstProductPath() {
  let productPath = "/product/1";
  try {
    const list = await (await fetch(`${base}/api/store/inventory/list`)).json();
    if (Array.isArray(list) && list[0]?.id) productPath = `/product/${list[0].id}`;
  } catch {}
  return productPath;
}

/** Each page warmed by one request, then loaded; returns their results by name, their rows and the product's path. */
export async function measurePages() {
  const productPath = await firstProductPath();
  const results = {};
  const rows = [];
  for (const [name, path] of [
    ["home /", "/"],
    ["/shop", "/shop"],
    [productPath, productPath],
  ]) {
    await fetch(base + path); // warm
    const r = await measured(() => load(base + path));
    results[name] = r;
    rows.push(row(name, r));
  }
  return { productPath, results, rows };
}
