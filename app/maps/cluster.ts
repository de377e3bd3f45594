import { ALERT_RED, BRAND_GREEN, CLUSTER } from "./config";

export type ScreenPoint<T> = { x: number; y: number; item: T };
export type Cluster<T> = { x: number; y: number; items: T[] };

/**
 * Groups points (pixel positions at the current zoom) the way a grid
 * clusterer does: a point joins the first cluster whose centre lies within
 * the grid size on both axes, otherwise it starts a new one. Clusters smaller
 * than the minimum size are returned as single points, and nothing clusters
 * above the maximum zoom.
 */
export function clusterPoints<T>(
  points: ScreenPoint<T>[],
  zoom: number,
  opts: { gridSize: number; minimumClusterSize: number; maxZoom: number } = CLUSTER,
): Cluster<T>[] {
  if (zoom > opts.maxZoom) return points.map((p) => ({ x: p.x, y: p.y, items: [p.item] }));
  const groups: { x: number; y: number; members: ScreenPoint<T>[] }[] = [];
  for (const p of points) {
    const g = groups.find((c) => Math.abs(c.x - p.x) <= opts.gridSize && Math.abs(c.y - p.y) <= opts.gridSize);
    if (g) {
      g.members.push(p);
      g.x = g.members.reduce((s, m) => s + m.x, 0) / g.members.length;
      g.y = g.members.reduce((s, m) => s + m.y, 0) / g.members.length;
    } else {
      groups.push({ x: p.x, y: p.y, members: [p] });
    }
  }
  return groups.flatMap((g) =>
    g.members.length >= opts.minimumClusterSize
      ? [{ x: g.x, y: g.y, items: g.members.map((m) => m.item) }]
      : g.members.map((m) => ({ x: m.x, y: m.y, items: [m.item] })),
  );
}

/** A cluster badge turns red when its count exceeds the greater of 10 and the mean cluster size. */
export function clusterColor(count: number, counts: number[]): string {
  const mean = counts.length ? counts.reduce((a, b) => a + b, 0) / counts.length : 0;
  return count > Math.max(10, mean) ? ALERT_RED : BRAND_GREEN;
}
