import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { remote } from "webdriverio";
import { describe, FOCUSED_IN_PAGE, inPage, spec, until, type Driver, type Focused, type Target } from "./driver";

/** Debian's WebKitGTK (`apt-get install webkit2gtk-driver xvfb`): its WebDriver and its MiniBrowser. */
export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER_PATH ?? "/usr/bin/WebKitWebDriver";
export const MINIBROWSER = process.env.MINIBROWSER_PATH ?? "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";

/**
 * MiniBrowser's toolbar (its buttons and address field) holds its window at 447 px at least: this
 * GTK stylesheet, given to it alone through its own XDG_CONFIG_HOME, lets it shrink, so the page
 * can be 390 px wide. The page's own rendering does not read GTK styles.
 */
const TOOLBAR_CSS =
  "box > button, box > entry { font-size: 1px; min-width: 0; min-height: 0; padding: 0; margin: 0; }\n";

type ElementReference = Record<string, string>;

/** Ends a process this suite started and whatever it started (its process group: the driver's MiniBrowser). */
function kill(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    child.kill("SIGTERM");
  }
}

/** Starts a process in a group of its own and resolves once `ready` matches its output. */
function start(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
  stdio: ("pipe" | "ignore")[] = ["ignore", "pipe", "pipe"],
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio, detached: true });
    let seen = "";
    const timer = setTimeout(() => {
      kill(child);
      reject(new Error(`${command} did not start: ${seen.slice(-500)}`));
    }, 15_000);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = ready.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match });
      }
    };
    for (const stream of [child.stdout, child.stderr, child.stdio[3]]) stream?.on("data", onData);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited (${code}) before it was ready: ${seen.slice(-500)}`));
    });
  });
}

/** WebKitGTK's MiniBrowser in an Xvfb display of its own, driven by webdriverio over WebKitWebDriver (WebDriver classic). */
export async function webkit(baseUrl: string, driverPort: number, logFile: string): Promise<Driver> {
  const processes: ChildProcess[] = [];
  const config = mkdtempSync(path.join(tmpdir(), "engines-webkit-"));
  const stopAll = () => {
    for (const child of processes.reverse()) kill(child);
    processes.length = 0;
    rmSync(config, { recursive: true, force: true });
    process.off("exit", stopAll);
  };
  // However the suite ends (a failure, Ctrl+C), the display, the driver and its browser end with it.
  process.on("exit", stopAll);
  try {
    // A free display, chosen by Xvfb itself and written to fd 3.
    const xvfb = await start(
      "Xvfb",
      ["-displayfd", "3", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
      process.env,
      /^(\d+)\n/,
      ["ignore", "ignore", "pipe", "pipe"],
    );
    processes.push(xvfb.child);
    mkdirSync(path.join(config, "gtk-3.0"));
    writeFileSync(path.join(config, "gtk-3.0", "gtk.css"), TOOLBAR_CSS);
    const env = { ...process.env, DISPLAY: `:${xvfb.match[1]}`, XDG_CONFIG_HOME: config };
    // The driver says nothing when it is ready: it is once it answers. Its output and the browser's
    // (GLib's warnings about the missing session bus among them) go to a file beside the screenshots.
    const log = openSync(logFile, "w");
    const driver = spawn(WEBKIT_DRIVER, [`--port=${driverPort}`], { env, stdio: ["ignore", log, log], detached: true });
    closeSync(log);
    processes.push(driver);
    let exited: number | null = null;
    driver.on("exit", (code) => (exited = code ?? -1));
    await until("WebKitWebDriver to answer", async () => {
      if (exited !== null) throw new Error(`WebKitWebDriver exited (${exited})`);
      return (await fetch(`http://127.0.0.1:${driverPort}/status`).catch(() => null))?.ok ? true : undefined;
    });
  } catch (error) {
    stopAll();
    throw error;
  }

  const browser = await remote({
    hostname: "127.0.0.1",
    port: driverPort,
    logLevel: "error",
    connectionRetryCount: 1,
    capabilities: {
      browserName: "MiniBrowser",
      // WebKitWebDriver 2.50 speaks WebDriver classic; webdriverio would otherwise ask for BiDi.
      "wdio:enforceWebDriverClassic": true,
      "webkitgtk:browserOptions": { binary: MINIBROWSER, args: ["--automation"] },
    } as WebdriverIO.Capabilities,
  }).catch((error: unknown) => {
    stopAll();
    throw error;
  });

  const script = (expression: string) => browser.execute(`return ${expression};`);

  async function element(target: Target, prepare = "(el) => el") {
    const t = spec(target);
    const ref = await until(describe(target), async () => {
      const found = (await script(
        inPage(`((t) => { const el = locate(t); return el && (${prepare})(el); })`, t),
      )) as ElementReference | null;
      return found ?? undefined;
    });
    return browser.$(ref as unknown as WebdriverIO.Element);
  }

  return {
    engine: "webkit",
    async goto(pathname) {
      await browser.url(new URL(pathname, baseUrl).href);
      // A page without a form of its own runs no script: it is whole at load.
      const html = await script(
        `document.contentType === "text/html" && !!document.querySelector('script[type="module"]')`,
      );
      if (html)
        await until(
          "the page to hydrate",
          async () => ((await script(`document.documentElement.hasAttribute("data-hydrated")`)) ? true : undefined),
          20_000,
        );
    },
    async click(target) {
      const el = await element(target, "(el) => { centre(el); return el; }");
      await el.click();
    },
    async fill(target, value) {
      const el = await element(target, "(el) => { centre(el); selectContents(el); return el; }");
      if (value === "") await browser.keys(["Backspace"]);
      else await el.addValue(value);
    },
    async select(target, option) {
      const el = await element(target, "(el) => { centre(el); return el; }");
      const value = await script(inPage(`((t, words) => optionValue(locate(t), words))`, spec(target), option));
      if (typeof value !== "string") throw new Error(`${describe(target)} has no option "${option}"`);
      await el.selectByAttribute("value", value);
    },
    async text(target) {
      const t = spec(target);
      return until(describe(target), async () => {
        const text = await script(inPage(`((t) => { const el = locate(t); return el ? el.innerText : null; })`, t));
        return typeof text === "string" ? text : undefined;
      });
    },
    async attr(target, name) {
      const t = spec(target);
      return until(describe(target), async () => {
        const found = (await script(
          inPage(
            `((t, name) => { const el = locate(t); if (!el) return null; return { value: name === "value" ? el.value : el.getAttribute(name) }; })`,
            t,
            name,
          ),
        )) as { value: string | null } | null;
        return found ? found.value : undefined;
      });
    },
    async waitFor(target, options = {}) {
      const t = spec(target);
      await until(
        `${describe(target)}${options.gone ? " to go" : ""}`,
        async () => {
          const there = await script(inPage(`((t) => locate(t) !== null)`, t));
          return there === !options.gone ? true : undefined;
        },
        options.timeout,
      );
    },
    async screenshot(file, target) {
      if (target) await element(target, "(el) => { toTop(el); return el; }");
      await new Promise((resolve) => setTimeout(resolve, 300)); // what the scroll revealed, drawn
      await browser.saveScreenshot(file);
    },
    async setViewport(width, height) {
      // The window's chrome (MiniBrowser's toolbar) is measured, then added to the height asked for.
      await browser.setWindowSize(width, height);
      const [innerWidth, innerHeight] = (await script(`[window.innerWidth, window.innerHeight]`)) as [number, number];
      if (innerHeight !== height) await browser.setWindowSize(width, height + (height - innerHeight));
      const inner = (await script(`[window.innerWidth, window.innerHeight]`)) as [number, number];
      if (inner[0] !== width || inner[1] !== height)
        throw new Error(`WebKit's page is ${inner[0]}×${inner[1]} px, not ${width}×${height} (was ${innerWidth} wide)`);
    },
    async url() {
      return browser.getUrl();
    },
    async focused() {
      return (await script(FOCUSED_IN_PAGE)) as Focused | null;
    },
    async close() {
      await browser.deleteSession().catch(() => {});
      stopAll();
    },
  };
}
