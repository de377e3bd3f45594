import { describe, expect, it } from "vitest";
import { clusterColor, clusterPoints } from "./cluster";
import { ALERT_RED, BRAND_GREEN, CLUSTER } from "./config";

const pt = (x: number, y: number, item: string) => ({ x, y, item });

describe("marker clustering (SPEC §9)", () => {
  it("uses the spec's constants", () => {
    expect(CLUSTER).toEqual({ gridSize: 60, minimumClusterSize: 2, zoomOnClickDelayMs: 100, radius: 40, maxZoom: 16 });
  });

  it("groups points within the 60-pixel grid and leaves lone points alone", () => {
    const clusters = clusterPoints([pt(0, 0, "a"), pt(50, 40, "b"), pt(200, 0, "c")], 7);
    expect(clusters.map((c) => c.items)).toEqual([["a", "b"], ["c"]]);
    expect(clusters[0]).toMatchObject({ x: 25, y: 20 });
  });

  it("does not cluster beyond the grid size or above the maximum zoom", () => {
    expect(clusterPoints([pt(0, 0, "a"), pt(61, 0, "b")], 7)).toHaveLength(2);
    expect(clusterPoints([pt(0, 0, "a"), pt(1, 1, "b")], 17)).toHaveLength(2);
    expect(clusterPoints([pt(0, 0, "a"), pt(1, 1, "b")], 16)).toHaveLength(1);
  });

  it("turns a badge red when its count exceeds the greater of 10 and the mean", () => {
    expect(clusterColor(5, [5, 3])).toBe(BRAND_GREEN);
    expect(clusterColor(11, [11, 2])).toBe(ALERT_RED);
    expect(clusterColor(12, [12, 30, 30])).toBe(BRAND_GREEN);
    expect(clusterColor(31, [31, 12, 12])).toBe(ALERT_RED);
  });
});
