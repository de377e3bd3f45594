import path from "node:path";
import { describe, expect, it } from "vitest";
import { importedSpecifiers, projectPathOf, readSource, sourceFiles } from "../tests/support/source";

/**
 * The floor plan of app/ (issue 37 item 1, README "Architecture"): each folder names a capability,
 * and the folders' imports run one way. The graph is read from the code, every import of every
 * source file (type-only ones too), not from a list kept by hand:
 *  - no folder imports a folder that imports it back, directly or through others (no cycle);
 *  - app/lib/ is the floor: it imports no other folder.
 * The files at app/'s top (root.tsx, entry.server.tsx, routes.ts) and app/routes/ wire the rest and
 * are not imported by any folder.
 */
type Graph = Map<string, Map<string, string[]>>;

/** The folder of app/ a project path is in ("booking" for app/booking/form/Form.tsx), "(top)" for app/'s own files. */
function folderOf(projectPath: string): string | undefined {
  const parts = projectPath.split(path.sep);
  if (parts[0] !== "app") return undefined;
  return parts.length > 2 ? parts[1]! : "(top)";
}

/** folder → folder it imports → the imports that make the edge ("file: specifier"). */
function folderGraph(): Graph {
  const graph: Graph = new Map();
  for (const file of sourceFiles("app")) {
    const from = folderOf(file)!;
    for (const specifier of importedSpecifiers(readSource(file))) {
      const target = projectPathOf(specifier, file);
      const to = target && folderOf(target);
      if (!to || to === from || to === "+types") continue;
      const edges = graph.get(from) ?? graph.set(from, new Map()).get(from)!;
      edges.set(to, [...(edges.get(to) ?? []), `${file}: ${specifier}`]);
    }
  }
  return graph;
}

/** Each cycle of folders, once, as the path round it ("booking → forms → booking"), with the imports that close it. */
function cyclesOf(graph: Graph): string[] {
  const cycles = new Set<string>();
  const walk = (start: string, at: string, trail: string[]) => {
    for (const next of graph.get(at)?.keys() ?? []) {
      if (next === start) {
        const ring = [...trail, start];
        // One name per cycle, whichever folder it was found from: rotate it to its smallest folder.
        const body = ring.slice(0, -1);
        const i = body.indexOf([...body].sort()[0]!);
        const rotated = [...body.slice(i), ...body.slice(0, i)];
        cycles.add([...rotated, rotated[0]].join(" → "));
      } else if (!trail.includes(next) && next > start) walk(start, next, [...trail, next]);
    }
  };
  for (const start of [...graph.keys()].sort()) walk(start, start, [start]);
  return [...cycles].map((cycle) => {
    const hops = cycle.split(" → ");
    const proof = hops.slice(0, -1).map((a, i) => graph.get(a)!.get(hops[i + 1]!)![0]);
    return `${cycle} (${proof.join("; ")})`;
  });
}

/** file → the files of app/ it imports (a specifier resolved as Vite does: .ts, .tsx, /index.ts). */
function fileGraph(): Map<string, string[]> {
  const files = new Set(sourceFiles("app"));
  const resolve = (p: string) => [p, `${p}.ts`, `${p}.tsx`, path.join(p, "index.ts")].find((c) => files.has(c));
  const graph = new Map<string, string[]>();
  for (const file of files)
    graph.set(
      file,
      importedSpecifiers(readSource(file)).flatMap((specifier) => {
        const target = projectPathOf(specifier, file);
        const found = target && resolve(target);
        return found ? [found] : [];
      }),
    );
  return graph;
}

/** The files that import each other, directly or through others: each strongly connected group of two or more (Tarjan). */
function fileCycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || graph.get(v)?.includes(v)) groups.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return groups;
}

describe("the folders of app/ import one way", () => {
  const graph = folderGraph();

  it("reads the graph from the code: the routes import the capabilities, booking the forms it builds on", () => {
    expect([...(graph.get("routes")?.keys() ?? [])]).toEqual(expect.arrayContaining(["booking", "forms", "shop"]));
    expect(graph.get("booking")?.has("forms")).toBe(true);
  });

  it("has no cycle: no folder imports a folder that imports it back, directly or through others", () => {
    expect(cyclesOf(graph)).toEqual([]);
  });

  it("has no circle of files either: no file imports one that imports it back (dynamic imports included)", () => {
    expect(fileCycles(fileGraph())).toEqual([]);
  });

  it("would see a circle of files, and not a chain", () => {
    const g = new Map([
      ["app/booking/manage.server.ts", ["app/booking/reschedule.server.ts"]],
      ["app/booking/reschedule.server.ts", ["app/booking/move-form.server.ts"]],
      ["app/booking/move-form.server.ts", ["app/booking/manage.server.ts"]],
      ["app/lib/env.server.ts", []],
    ]);
    expect(fileCycles(g)).toEqual([
      ["app/booking/manage.server.ts", "app/booking/move-form.server.ts", "app/booking/reschedule.server.ts"],
    ]);
    g.set("app/booking/move-form.server.ts", ["app/lib/env.server.ts"]);
    expect(fileCycles(g)).toEqual([]);
  });

  it("keeps app/lib/ at the bottom: it imports no other folder", () => {
    expect([...(graph.get("lib")?.entries() ?? [])].flatMap(([, why]) => why)).toEqual([]);
  });

  it("would see a cycle, however long, and name it once", () => {
    const g: Graph = new Map([
      ["booking", new Map([["forms", ["app/booking/a.ts: ~/forms/x"]]])],
      ["forms", new Map([["mail", ["app/forms/b.ts: ~/mail/y"]]])],
      [
        "mail",
        new Map([
          ["booking", ["app/mail/c.ts: ~/booking/z"]],
          ["lib", ["app/mail/c.ts: ~/lib/w"]],
        ]),
      ],
      ["lib", new Map()],
    ]);
    expect(cyclesOf(g)).toEqual([
      "booking → forms → mail → booking (app/booking/a.ts: ~/forms/x; app/forms/b.ts: ~/mail/y; app/mail/c.ts: ~/booking/z)",
    ]);
    g.get("mail")!.delete("booking");
    expect(cyclesOf(g)).toEqual([]);
  });

  it("reads every way a module names another", () => {
    const text = [
      'import { a } from "~/booking/a";',
      'import type { B } from "../forms/b";',
      'export { c } from "~/mail/c";',
      'import "./d.css";',
      'const e = await import("~/shop/e");',
      'import f from "~/shell/f.css?url";',
    ].join("\n");
    expect(importedSpecifiers(text)).toEqual([
      "~/booking/a",
      "../forms/b",
      "~/mail/c",
      "./d.css",
      "~/shop/e",
      "~/shell/f.css?url",
    ]);
    expect(folderOf(projectPathOf("../forms/b", "app/booking/x.ts")!)).toBe("forms");
    expect(folderOf(projectPathOf("~/shell/f.css?url", "app/root.tsx")!)).toBe("shell");
    expect(folderOf(projectPathOf("./x", "app/root.tsx")!)).toBe("(top)");
  });
});
