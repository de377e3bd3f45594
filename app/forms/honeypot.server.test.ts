import { describe, expect, it } from "vitest";
import {
  HONEYPOT_NAME_FIELD,
  HONEYPOT_VALID_FROM_FIELD,
  honeypotInputProps,
  isHoneypotTripped,
} from "./honeypot.server";

/**
 * The honeypot (issue 15, DECISIONS 27): required on HTML posts, optional for
 * the JSON API, and a form posted within the minimum fill time of its render
 * counts as a bot.
 */
function fields(extra: Record<string, string>): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(extra)) fd.append(k, v);
  return fd;
}

const NOW = Date.UTC(2025, 5, 1, 12, 0, 0);
const MIN = 2_000;

function renderedAt(time: number): Record<string, string> {
  return { [HONEYPOT_NAME_FIELD]: "", [HONEYPOT_VALID_FROM_FIELD]: honeypotInputProps(time).encryptedValidFrom };
}

describe("honeypot required on HTML posts", () => {
  it("an HTML post without the fields is tripped; the same body to the JSON API is not", () => {
    const bare = fields({ first_name: "Ada", email: "ada@example.com" });
    expect(isHoneypotTripped(bare, { required: true, minFillMs: MIN, now: NOW })).toBe(true);
    expect(isHoneypotTripped(bare, { required: false, minFillMs: MIN, now: NOW })).toBe(false);
  });

  it("only one of the two fields, or an empty timestamp, is tripped either way", () => {
    const { [HONEYPOT_VALID_FROM_FIELD]: validFrom } = renderedAt(NOW - 10_000);
    for (const required of [true, false]) {
      expect(isHoneypotTripped(fields({ [HONEYPOT_VALID_FROM_FIELD]: validFrom! }), { required, now: NOW })).toBe(true);
      expect(isHoneypotTripped(fields({ [HONEYPOT_NAME_FIELD]: "" }), { required, now: NOW })).toBe(true);
      expect(
        isHoneypotTripped(fields({ [HONEYPOT_NAME_FIELD]: "", [HONEYPOT_VALID_FROM_FIELD]: "" }), {
          required,
          now: NOW,
        }),
      ).toBe(true);
    }
  });

  it("an empty trap with a genuine timestamp from long enough ago passes", () => {
    expect(isHoneypotTripped(fields(renderedAt(NOW - 10_000)), { required: true, minFillMs: MIN, now: NOW })).toBe(
      false,
    );
    expect(isHoneypotTripped(fields(renderedAt(NOW - MIN)), { required: true, minFillMs: MIN, now: NOW })).toBe(false);
  });

  it("a filled trap, a forged timestamp or one from the future is tripped", () => {
    const good = renderedAt(NOW - 10_000);
    expect(
      isHoneypotTripped(fields({ ...good, [HONEYPOT_NAME_FIELD]: "http://spam.example" }), {
        required: true,
        now: NOW,
      }),
    ).toBe(true);
    expect(
      isHoneypotTripped(fields({ ...good, [HONEYPOT_VALID_FROM_FIELD]: "forged" }), { required: true, now: NOW }),
    ).toBe(true);
    // A real ciphertext with one byte changed: the GCM tag no longer matches.
    const raw = Buffer.from(good[HONEYPOT_VALID_FROM_FIELD]!, "base64url");
    raw[raw.length - 1]! ^= 1;
    expect(
      isHoneypotTripped(fields({ ...good, [HONEYPOT_VALID_FROM_FIELD]: raw.toString("base64url") }), {
        required: true,
        now: NOW,
      }),
    ).toBe(true);
    expect(isHoneypotTripped(fields(renderedAt(NOW + 60_000)), { required: true, now: NOW })).toBe(true);
  });
});

describe("minimum fill time", () => {
  it("a form posted within FORM_MIN_FILL_MS of its render is tripped, just after it is not", () => {
    const check = { required: true, minFillMs: MIN, now: NOW };
    expect(isHoneypotTripped(fields(renderedAt(NOW)), check)).toBe(true);
    expect(isHoneypotTripped(fields(renderedAt(NOW - 500)), check)).toBe(true);
    expect(isHoneypotTripped(fields(renderedAt(NOW - (MIN - 1))), check)).toBe(true);
    expect(isHoneypotTripped(fields(renderedAt(NOW - MIN)), check)).toBe(false);
  });

  it("applies to API posts that do carry the fields, and not at all when the minimum is 0", () => {
    expect(isHoneypotTripped(fields(renderedAt(NOW - 500)), { required: false, minFillMs: MIN, now: NOW })).toBe(true);
    expect(isHoneypotTripped(fields(renderedAt(NOW)), { required: true, minFillMs: 0, now: NOW })).toBe(false);
    expect(isHoneypotTripped(fields(renderedAt(NOW)), { required: true, now: NOW })).toBe(false);
  });
});
