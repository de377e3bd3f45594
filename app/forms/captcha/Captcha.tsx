import type {} from "altcha/types/react";
import { forwardRef, useEffect, useImperativeHandle, useLayoutEffect, useRef, useState } from "react";
import {
  CAPTCHA_TOKEN_FIELD,
  NOJS_ANSWER_FIELD,
  NOJS_TOKEN_FIELD,
  spamCheckId,
  type CaptchaBootstrap,
  type CaptchaClientConfig,
} from "./types";

/**
 * The captcha of every form. With JavaScript: the ALTCHA proof-of-work widget
 * (or Google reCAPTCHA when configured), loaded in the browser only; its token
 * travels as `recaptcha_token`. Without JavaScript: the server-signed
 * "What is A + B?" question inside <noscript>. `passed`: the form's last
 * post passed it and its answer passed it on (a paid form's declined card:
 * ./pass.server.ts); the widget is left as it is, and the page without
 * JavaScript says so instead of asking a new sum. `error`: the refusal's
 * "Please complete the spam check.", said above it. The error summary's link
 * lands here: on the sum's input without JavaScript (its id), on the
 * widget's checkbox with it (the place's `data-summary-place`).
 */
export type CaptchaHandle = { reset(): void };

type Grecaptcha = {
  render(
    el: HTMLElement,
    opts: { sitekey: string; callback: (t: string) => void; "expired-callback": () => void },
  ): number;
  reset(id?: number): void;
};
declare global {
  interface Window {
    grecaptcha?: Grecaptcha & { ready?: (cb: () => void) => void };
  }
}

export const Captcha = forwardRef<
  CaptchaHandle,
  { bootstrap: CaptchaBootstrap; formId: string; passed?: boolean; error?: string | null }
>(function Captcha({ bootstrap, formId, passed = false, error = null }, ref) {
  const answerId = spamCheckId(formId);
  const errorId = `${answerId}-error`;
  const widget = useRef<CaptchaHandle>(null);
  useImperativeHandle(ref, () => ({ reset: () => widget.current?.reset() }), []);
  return (
    <div className="form-captcha" data-summary-place={answerId} tabIndex={-1}>
      {error ? (
        <p id={errorId} className="form-field-error">
          {error}
        </p>
      ) : null}
      {bootstrap.config.provider === "recaptcha" ? (
        <RecaptchaWidget ref={widget} config={bootstrap.config} />
      ) : (
        <AltchaWidget ref={widget} config={bootstrap.config} />
      )}
      {/* Without JavaScript the widget's slot is hidden by forms.css (not by a <style>
          in here: a <style> in <body> may only style what follows it, issue 15). */}
      <noscript>
        {passed ? (
          <p className="form-captcha-nojs form-hint">
            You answered the spam check with this form already: no need to answer it again.
          </p>
        ) : (
          <div className="form-captcha-nojs">
            <label htmlFor={answerId} className="form-label">
              {bootstrap.noJs.question}{" "}
              <span className="form-required" aria-hidden="true">
                *
              </span>
            </label>
            <p className="form-hint">Please answer this small sum so we know you are a person.</p>
            <input
              id={answerId}
              className="form-native-input form-captcha-answer"
              aria-describedby={error ? errorId : undefined}
              aria-invalid={error ? true : undefined}
              name={NOJS_ANSWER_FIELD}
              type="text"
              inputMode="numeric"
              autoComplete="off"
              size={4}
              maxLength={2}
            />
            <input type="hidden" name={NOJS_TOKEN_FIELD} value={bootstrap.noJs.token} />
          </div>
        )}
      </noscript>
    </div>
  );
});

/**
 * The ALTCHA widget, loaded when the visitor comes near it: its slot on screen or a fifth of a
 * screen below it (scrolling there leaves the widget time to appear), or a first focus or press
 * anywhere in its form (the usual case: a visitor fills the fields above it first). Its code
 * (31 KB), its Svelte mount and the form's re-read of its fields that the widget's own input sets
 * off make one task of 60–80 ms at 4× CPU; after hydration, with nothing yet asked of it, that
 * task is blocking time on every form page, and on a phone the widget is a long scroll away
 * (docs/decisions/066).
 *
 * It solves itself once the visitor has started the form (issue 38 item 3): ALTCHA's `auto`
 * "onfocus" starts it at a focus in its form, and a visitor who touched the form before the
 * widget had loaded (the focus or press that loaded it) has it started as soon as it is there.
 * A visitor who only scrolls past it is asked nothing until they start the form.
 */
const AltchaWidget = forwardRef<CaptchaHandle, { config: Extract<CaptchaClientConfig, { provider: "altcha" }> }>(
  function AltchaWidget({ config }, ref) {
    const [stage, setStage] = useState<"waiting" | "loading" | "ready">("waiting");
    const slot = useRef<HTMLDivElement>(null);
    const el = useRef<HTMLElementTagNameMap["altcha-widget"]>(null);
    // The visitor has started the form (a focus or a press in it).
    const started = useRef(false);
    useImperativeHandle(ref, () => ({ reset: () => el.current?.reset?.() }), []);
    useEffect(() => {
      const form = slot.current?.closest("form");
      if (!form) return;
      const start = () => {
        started.current = true;
      };
      if (form.contains(document.activeElement)) start();
      form.addEventListener("focusin", start);
      form.addEventListener("pointerdown", start);
      return () => {
        form.removeEventListener("focusin", start);
        form.removeEventListener("pointerdown", start);
      };
    }, []);
    // Mounted: solve it at once if the form was started before it was there (its own "onfocus"
    // only hears the focuses that come after). Listened for in the commit, before the widget's
    // Svelte mount (a microtask later) announces itself.
    useLayoutEffect(() => {
      const widget = el.current;
      if (stage !== "ready" || !widget) return;
      const solve = () => {
        if (started.current && widget.getState?.() === "unverified") void widget.verify?.();
      };
      widget.addEventListener("load", solve);
      return () => widget.removeEventListener("load", solve);
    }, [stage]);
    useEffect(() => {
      const node = slot.current;
      if (!node) return;
      let alive = true;
      const form = node.closest("form");
      // Where IntersectionObserver is missing, at once (as the footer's carousel).
      const near =
        typeof IntersectionObserver === "undefined"
          ? null
          : new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && load(), {
              rootMargin: "0px 0px 20% 0px",
            });
      function stop() {
        near?.disconnect();
        form?.removeEventListener("focusin", load);
        form?.removeEventListener("pointerdown", load);
      }
      // Once the browser is idle: the focus or press that asked for it is painted first, and the widget's
      // mount does not delay that interaction's answer (its Interaction to Next Paint).
      function load() {
        stop();
        (window.requestIdleCallback ?? setTimeout)(() => {
          if (!alive) return;
          setStage("loading");
          void import("altcha").then(() => alive && setStage("ready"));
        });
      }
      if (!near) load();
      else {
        near.observe(node);
        form?.addEventListener("focusin", load);
        form?.addEventListener("pointerdown", load);
      }
      return () => {
        alive = false;
        stop();
      };
    }, []);
    if (stage !== "ready") {
      // Server render and first paint: an empty slot of the widget's height (no layout shift).
      return (
        <div ref={slot} className="form-captcha-slot form-hint">
          {stage === "loading" ? "Loading the spam check…" : null}
        </div>
      );
    }
    return (
      <altcha-widget
        ref={el}
        challenge={config.challengeUrl}
        name={CAPTCHA_TOKEN_FIELD}
        type="checkbox"
        auto="onfocus"
        language="en"
        configuration={JSON.stringify({ hideFooter: false, minDuration: 300 })}
      />
    );
  },
);

const RecaptchaWidget = forwardRef<CaptchaHandle, { config: Extract<CaptchaClientConfig, { provider: "recaptcha" }> }>(
  function RecaptchaWidget({ config }, ref) {
    const box = useRef<HTMLDivElement>(null);
    const [token, setToken] = useState("");
    const widgetId = useRef<number | undefined>(undefined);
    useImperativeHandle(
      ref,
      () => ({
        reset: () => {
          setToken("");
          if (widgetId.current !== undefined) window.grecaptcha?.reset(widgetId.current);
        },
      }),
      [],
    );
    useEffect(() => {
      const render = () => {
        if (!box.current || widgetId.current !== undefined || !window.grecaptcha?.render) return;
        widgetId.current = window.grecaptcha.render(box.current, {
          sitekey: config.siteKey,
          callback: setToken,
          "expired-callback": () => setToken(""),
        });
      };
      const w = window as unknown as Record<string, unknown>;
      const previous = w.__onRecaptchaLoad as (() => void) | undefined;
      w.__onRecaptchaLoad = () => {
        previous?.();
        render();
      };
      if (window.grecaptcha?.render) render();
      else if (!document.querySelector("script[data-recaptcha]")) {
        const script = document.createElement("script");
        script.src = "https://www.google.com/recaptcha/api.js?onload=__onRecaptchaLoad&render=explicit";
        script.async = true;
        script.dataset.recaptcha = "true";
        document.head.appendChild(script);
      }
    }, [config.siteKey]);
    return (
      <>
        <div ref={box} />
        <input type="hidden" name={CAPTCHA_TOKEN_FIELD} value={token} />
      </>
    );
  },
);
