import { describe, expect, it } from "vitest";
import { BoundedCache, reviewsStored, stamp } from "./cache.server";

const value = (name: string) => ({ name, stamp: stamp() });

describe("BoundedCache", () => {
  it("holds at most its entries and its bytes, the least recently used going first", () => {
    const cache = new BoundedCache<ReturnType<typeof value>>(3, 100);
    cache.set("a", value("a"), 40);
    cache.set("b", value("b"), 40);
    expect(cache.get("a")?.name).toBe("a"); // a is now the most recently used
    cache.set("c", value("c"), 40); // 120 bytes: b goes
    expect(cache.get("b")).toBeUndefined();
    expect([cache.size, cache.bytes]).toEqual([2, 80]);
    cache.set("d", value("d"), 10);
    cache.set("e", value("e"), 10); // 4 entries: a goes (c, d, e are newer)
    expect(cache.get("a")).toBeUndefined();
    expect([cache.size, cache.bytes]).toEqual([3, 60]);
  });

  it("never keeps an entry heavier than all of it, and counts a replaced entry once", () => {
    const cache = new BoundedCache<ReturnType<typeof value>>(10, 100);
    cache.set("a", value("a"), 60);
    cache.set("big", value("big"), 101);
    expect(cache.get("big")).toBeUndefined();
    expect(cache.get("a")?.name).toBe("a");
    cache.set("a", value("a2"), 30);
    expect([cache.size, cache.bytes]).toEqual([1, 30]);
  });

  it("drops stale entries when asked for them, and their bytes with them", () => {
    const cache = new BoundedCache<ReturnType<typeof value>>(10, 100);
    cache.set("a", value("a"), 50);
    reviewsStored();
    expect(cache.get("a")).toBeUndefined();
    expect([cache.size, cache.bytes]).toEqual([0, 0]);
  });
});
