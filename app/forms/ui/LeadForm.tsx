import { getFormProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useMemo, useRef, useState } from "react";
import { useActionData, useFetcher, useFormAction } from "react-router";
import type { z } from "~/lib/zod";
import { MantineScope } from "~/shell/MantineScope";
import { Captcha, type CaptchaHandle } from "../captcha/Captcha";
import {
  SPAM_CHECK_MESSAGE,
  CAPTCHA_PASS_FIELD,
  CAPTCHA_TOKEN_FIELD,
  captchaPassOf,
  RECAPTCHA_RESPONSE_FIELD,
} from "../captcha/types";
import { CHECK_FIELDS_MESSAGE, isFormActionData, SUBMISSION_KEY_FIELD, type FormActionData } from "../result";
import { useAnswerShown } from "./answer-shown";
import { ErrorSummary, summaryEntries, type SummaryEntry, type SummaryLinkOf } from "./ErrorSummary";
import { PhoneText } from "./PhoneText";
import { HoneypotFields } from "./HoneypotFields";
import type { FormBootstrapData } from "./bootstrap";
export type { FormBootstrapData } from "./bootstrap";
import { schemaFieldOrder } from "../schema-helpers";
import { PhotoField } from "./fields";
import type { FormUploadRule } from "../identity";

/**
 * The one form frame every lead form renders (issue 4): a real
 * <form method="post"> (multipart when it carries files) that works without
 * JavaScript, enhanced with Conform (the same zod schema validates on blur in
 * the browser), a fetcher (no page reload), the pending label, the captcha,
 * the honeypot and the green/red message, and on a refusal the error summary at the top
 * (./ErrorSummary.tsx). A form's view only lays out fields.
 */

type Fields<S extends z.ZodType> = ReturnType<typeof useForm<z.input<S> & Record<string, unknown>>>[1];

export type LeadFormProps<S extends z.ZodType> = {
  /** Must equal the server definition's id (it tells which form an answer belongs to). */
  id: string;
  schema: S;
  bootstrap: FormBootstrapData;
  defaultValue?: Partial<Record<keyof z.input<S>, unknown>>;
  /** Where to post; defaults to the current route's action (the host page's). */
  action?: string;
  multipart?: boolean;
  submitLabel?: string;
  busyLabel?: string;
  /** Accessible name of the form. */
  title: string;
  /** A line just above the submit button (a paid form's terms and privacy links: ./PolicyNote.tsx). */
  submitNote?: React.ReactNode;
  children: (fields: Fields<S>, errors: Record<string, string[] | undefined>) => React.ReactNode;
  /**
   * The form's photos (its identity's upload rule), placed after the captcha: a browser sends a
   * form's parts in page order, and the server judges the honeypot and the captcha before it
   * writes any file (issue 28), so they must arrive first.
   */
  uploads?: FormUploadRule;
  /**
   * The fragment "Show price" (no-JS) posts to: a refused preview (a ZIP outside the service
   * area) opens at the error summary, which takes this id, instead of at the price it does not show.
   */
  previewAnchor?: string;
  /** A way on after an entry of the error summary (a ZIP outside the area: the quote form's link), or null. */
  summaryLink?: SummaryLinkOf;
  /**
   * A refusal the page already knows (with JavaScript: the ZIP's answer, outside the area) that no
   * other field can fix: the summary's first entry when it refuses, before the fields' own.
   */
  summaryLead?: { name: string; message: string } | null;
};

/** The summary's entries with the page's own refusal first (when no field says it yet) and each one's way on. */
function ledSummary(
  entries: SummaryEntry[],
  formId: string,
  lead: { name: string; message: string } | null | undefined,
  link: SummaryLinkOf | undefined,
): SummaryEntry[] {
  const first =
    lead && !entries.some((entry) => entry.name === lead.name) ? [{ ...lead, target: `${formId}-${lead.name}` }] : [];
  return [...first, ...entries].map((entry) => ({ ...entry, more: link?.(entry.message) ?? undefined }));
}

/** Conform's intent field (its validation "submissions"). */
const INTENT_FIELD = "__intent__";

export function LeadForm<S extends z.ZodType>({
  id,
  schema,
  bootstrap,
  defaultValue,
  action,
  multipart,
  uploads,
  submitLabel = "Submit",
  busyLabel = "Submitting...",
  title,
  submitNote,
  children,
  previewAnchor,
  summaryLink,
  summaryLead,
}: LeadFormProps<S>) {
  const fetcher = useFetcher<FormActionData>({ key: `lead-form-${id}` });
  const actionData = useActionData();
  // Without JavaScript the page itself is the answer: the route's action data, or for a paid form
  // the answer its post left for the page its 303 led to (app/forms/posted-answer.server.ts).
  const pageResult =
    isFormActionData(actionData) && actionData.form === id
      ? actionData
      : isFormActionData(bootstrap.answer) && bootstrap.answer.form === id
        ? bootstrap.answer
        : null;
  const result = fetcher.data ?? pageResult;
  const submissionKey = useSubmissionKey(bootstrap.submissionKey, result, fetcher.data);
  // A paid form's refused charge: the captcha stays passed for this render's next post (another card).
  const captchaPass = result?.status === "error" ? captchaPassOf(result.lastResult?.initialValue) : undefined;
  const captcha = useRef<CaptchaHandle>(null);
  const { shown, focusKey, refusedHere, submitted } = useAnswerShown(result, fetcher.data);
  const routeAction = useFormAction();
  const fieldOrder = useMemo(() => schemaFieldOrder(schema), [schema]);
  // Without JavaScript the form posts to this fragment: a refusal's page opens at the summary, a
  // success's at the message (the id is on whichever the answer shows).
  const statusId = `${id}-status`;

  const [form, fields] = useForm<z.input<S> & Record<string, unknown>>({
    id,
    lastResult: (result?.lastResult ?? null) as SubmissionResult<string[]> | null,
    defaultValue: defaultValue as never,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    // Same schema as the server (Conform + zod 4 through @conform-to/zod/v4).
    onValidate: ({ formData }) => {
      const submission = parseWithZod(formData, { schema });
      // A press of the submit button (not a field's blur check) refused here: the summary says why.
      if (!formData.has(INTENT_FIELD) && submission.status === "error") refusedHere(CHECK_FIELDS_MESSAGE);
      return submission as never;
    },
    onSubmit(event, { formData }) {
      // Each submit clears the previous message first (SPEC §4).
      submitted();
      const token =
        formData.get(CAPTCHA_TOKEN_FIELD) || formData.get(RECAPTCHA_RESPONSE_FIELD) || formData.get(CAPTCHA_PASS_FIELD);
      if (!token) {
        event.preventDefault();
        refusedHere(SPAM_CHECK_MESSAGE);
        return;
      }
      // Leave the field now: if it still had focus when the form resets after
      // success, its removal would fire a blur validation in the middle of React's
      // commit, which the browser would then submit natively.
      const active = document.activeElement;
      if (active instanceof HTMLElement && event.currentTarget.contains(active)) active.blur();
    },
  });

  useIntentGuard(form.id);
  const filesKept = useAnswerEffects(fetcher.data, form.id, statusId, captcha);

  const photosDropped = result && result.status !== "success" && !filesKept ? (result.photosDropped ?? null) : null;
  // "Show price" without JavaScript refused what it checks (the ZIP outside the service area, a day
  // gone): the summary says so, where the page opens, before any price.
  const previewRefused =
    result?.status === "preview" && Object.values(result.lastResult?.error ?? {}).some((m) => m?.length);
  // The spam check was missing or wrong: its own entry in the summary, and its words beside it.
  const spamCheckMissing = shown?.status === "error" && shown.message.includes(SPAM_CHECK_MESSAGE);
  const summary =
    shown?.status === "error" || previewRefused
      ? summaryEntries(form.id, form.allErrors, {
          order: fieldOrder,
          photos: uploads?.field,
          photosDropped,
          spamCheck: spamCheckMissing,
        })
      : null;
  const entries = summary ? ledSummary(summary, form.id, summaryLead, summaryLink) : null;

  const busy = fetcher.state !== "idle";
  const target = `${action ?? routeAction}#${statusId}`;

  return (
    // Mantine's provider for the form's inputs: the shell has none (shell/MantineScope.tsx).
    <MantineScope>
      {bootstrap.recentPayment?.form === id ? <RecentPayment path={bootstrap.recentPayment.path} /> : null}
      {/* Above the form, as GOV.UK places it: the first thing a refused page shows. */}
      {summary ? (
        <ErrorSummary
          id={previewRefused && previewAnchor ? previewAnchor : statusId}
          formId={form.id}
          message={shown?.message ?? ""}
          notice={shown?.notice}
          entries={entries ?? []}
          focusKey={focusKey}
        />
      ) : null}
      <fetcher.Form
        method="post"
        action={target}
        encType={multipart ? "multipart/form-data" : undefined}
        {...getFormProps(form)}
        aria-label={title}
        className="lead-form"
        // Paid a moment ago (Back after paying): the browser must not put back what was typed for
        // that payment; a fillable copy of it would invite paying twice (issue 45 item 2).
        autoComplete={bootstrap.recentPayment?.form === id ? "off" : undefined}
      >
        <HoneypotFields formId={form.id} fields={result?.honeypot ?? bootstrap.honeypot} />
        <input type="hidden" name={SUBMISSION_KEY_FIELD} value={submissionKey} />
        {children(fields, form.allErrors)}
        {captchaPass ? <input type="hidden" name={CAPTCHA_PASS_FIELD} value={captchaPass} /> : null}
        <Captcha
          ref={captcha}
          bootstrap={bootstrap.captcha}
          formId={form.id}
          passed={Boolean(captchaPass)}
          error={spamCheckMissing ? SPAM_CHECK_MESSAGE : null}
        />
        {uploads ? (
          <div className="lead-form-files">
            <PhotoField
              formId={form.id}
              rule={uploads}
              errors={form.allErrors[uploads.field]}
              dropped={photosDropped === uploads.field}
            />
          </div>
        ) : null}
        {/* The summary above is the refusal's announcement; here the message stays by the button. */}
        <div id={summary ? undefined : statusId} className="form-status" aria-live={summary ? "off" : "polite"}>
          {shown?.message ? (
            <p
              role={shown.status === "success" ? "status" : summary ? undefined : "alert"}
              className={`form-message form-message--${shown.status}`}
            >
              <PhoneText text={shown.message} />
            </p>
          ) : null}
          {shown?.notice ? (
            <p className="form-notice">
              <PhoneText text={shown.notice} />
            </p>
          ) : null}
        </div>
        {submitNote}
        <button
          type="submit"
          className="btn btn-primary btn-lg form-submit"
          disabled={busy}
          // Keep focus in the field on mouse down: its blur validation would insert an
          // error above, move this button and swallow the click.
          onMouseDown={(event) => event.preventDefault()}
        >
          {busy ? busyLabel : submitLabel}
        </button>
      </fetcher.Form>
    </MantineScope>
  );
}

/** A paid form used a moment ago from this browser: the receipt is one link away (no paying twice). */
function RecentPayment({ path }: { path: string }) {
  return (
    <p className="form-message form-message--success form-recent-payment" role="status">
      You paid with this form a moment ago. <a href={path}>See your receipt</a>; you do not need to pay again.
    </p>
  );
}

/**
 * Conform validates by submitting "intent" buttons; with JavaScript such a submission must never
 * reach the network, whatever happens to React's handler.
 */
function useIntentGuard(formId: string) {
  useEffect(() => {
    const element = document.getElementById(formId);
    if (!(element instanceof HTMLFormElement)) return;
    const guard = (event: SubmitEvent) => {
      if (event.submitter?.getAttribute("name") === INTENT_FIELD) event.preventDefault();
    };
    element.addEventListener("submit", guard, true);
    return () => element.removeEventListener("submit", guard, true);
  }, [formId]);
}

/**
 * What a new answer does to the page: clear the captcha token (it is spent), unless the answer
 * passed it on (a declined card: the widget stays ticked, the pass goes with the next post). A
 * success: its message is scrolled into view, clear of the phone's "Call us" bar (the page's
 * scroll-padding-bottom, shell.css). Returns whether the file inputs kept the visitor's photos
 * through the answer (with JavaScript they do).
 */
function useAnswerEffects(
  answer: FormActionData | undefined,
  formId: string,
  statusId: string,
  captcha: React.RefObject<CaptchaHandle | null>,
): boolean {
  const [filesKept, setFilesKept] = useState(false);
  useEffect(() => {
    if (!answer) return;
    if (!captchaPassOf(answer.lastResult?.initialValue)) captcha.current?.reset();
    const element = document.getElementById(formId);
    setFilesKept(
      Array.from(element?.querySelectorAll<HTMLInputElement>('input[type="file"]') ?? []).some(
        (input) => (input.files?.length ?? 0) > 0,
      ),
    );
    if (answer.status === "success")
      requestAnimationFrame(() => {
        // Conform's reset unselects every option of a select whose default is empty (its
        // updateField sets selectedIndex -1): back to the placeholder, as the browser's reset does.
        for (const select of element?.querySelectorAll("select") ?? []) {
          if (select.selectedIndex === -1 && select.options.length > 0) select.selectedIndex = 0;
        }
        document.getElementById(statusId)?.scrollIntoView({ block: "nearest" });
      });
  }, [answer, formId, statusId, captcha]);
  return filesKept;
}

export type { FieldMetadata };

/**
 * The submission key to send (app/forms/pipeline/): a refused form
 * keeps the key it was sent with, so its retry is recognised if the first
 * post was stored after all; a stored one gets a new key for the next
 * message. Without JavaScript the page's loader gives the new key; with it,
 * the page is not reloaded after a send, so the browser makes one.
 */
function useSubmissionKey(
  rendered: string,
  result: FormActionData | null,
  fetched: FormActionData | undefined,
): string {
  const [fresh, setFresh] = useState<string | null>(null);
  useEffect(() => {
    if (fetched?.status === "success") setFresh(newSubmissionKey());
  }, [fetched]);
  const posted = (result?.lastResult?.initialValue as Record<string, unknown> | null | undefined)?.[
    SUBMISSION_KEY_FIELD
  ];
  if (result?.status === "success") return fresh ?? rendered;
  return typeof posted === "string" ? posted : (fresh ?? rendered);
}

function newSubmissionKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16)); // randomUUID needs a secure context; this works on plain http too
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
