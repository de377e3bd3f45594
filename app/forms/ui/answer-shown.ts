import { useState } from "react";
import { shownMessage, type FormActionData } from "../result";

/** What the form's status line (and the error summary's message) says. */
export type Shown = { status: "success" | "error"; message: string; notice?: string } | null;

/**
 * What a lead form shows of its answers, derived in every render from the answer itself, never
 * copied into state by an effect or a render-time update: whichever render React commits with an
 * answer shows it (issue 38: an answer copied into state was once in a while committed without
 * its message under load; the card fields' reset in the same commit showed it had arrived).
 *
 *  - `result`: the answer on the page (the fetcher's with JavaScript, the page's own without);
 *  - `answer`: the fetcher's answer alone, the one a refusal's summary takes focus for.
 *
 * A submit hides the answer it follows (SPEC §4: each submit clears the previous message); a
 * refusal made in the browser (the fields, a missing spam check) shows until the next submit. The
 * summary's focus key is the refusal's own object: a new one focuses the summary again; a page
 * rendered by the server (no JavaScript) is not focused (its fragment lands on it).
 */
export function useAnswerShown(result: FormActionData | null, answer: FormActionData | undefined) {
  const [hidden, setHidden] = useState<FormActionData | null>(null);
  const [local, setLocal] = useState<{ shown: NonNullable<Shown> } | null>(null);
  const fromServer = result && result !== hidden ? shownMessage(result) : null;
  const shown: Shown = local?.shown ?? fromServer;
  const focusKey: object | null =
    local ?? (answer && answer === result && answer !== hidden && answer.status === "error" ? answer : null);
  return {
    shown,
    focusKey,
    /** A refusal made in the browser, before anything was sent. */
    refusedHere: (message: string) => setLocal({ shown: { status: "error", message } }),
    /** A submit on its way: the last answer and refusal are cleared. */
    submitted: () => {
      setLocal(null);
      setHidden(result);
    },
  };
}
