/**
 * The line beside a paid form's pay button (DECISIONS 38, issue 38 item 7): paying accepts the
 * terms, and the privacy notice says what the form keeps. The pages open in a new tab, so a
 * half-filled form (its card fields) is not left behind.
 */
export function PolicyNote({ action = "paying" }: { action?: string }) {
  return (
    <p className="form-hint form-policy-note" data-testid="policy-note">
      By {action} you agree to our{" "}
      <a href="/terms" target="_blank" rel="noopener">
        terms of sale and service<span className="visually-hidden"> (opens in a new tab)</span>
      </a>
      . Our{" "}
      <a href="/privacy" target="_blank" rel="noopener">
        privacy notice<span className="visually-hidden"> (opens in a new tab)</span>
      </a>{" "}
      says what we keep from this form, why and for how long.
    </p>
  );
}
