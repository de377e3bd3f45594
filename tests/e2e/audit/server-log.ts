import path from "node:path";
import { E2E_DATA_DIR } from "../support/server";

/**
 * The file scripts/e2e-server.mjs copies the e2e server's whole output to:
 * E2E_LOG_FILE, by default beside the server's data folder (.data-e2e.log).
 * Not under test-results/: every Playwright run empties that folder as it
 * starts, another run's included.
 */
export const E2E_LOG_FILE = path.resolve(process.env.E2E_LOG_FILE ?? `${E2E_DATA_DIR.replace(/\/+$/, "")}.log`);
