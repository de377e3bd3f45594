/** The form pipeline's public face: what forms, routes and tests use (app/forms/pipeline/run.server.ts runs it). */
export { runForm } from "./run.server";
export {
  FormFailure,
  type FormDefinition,
  type FormOutcome,
  type FormPayment,
  type Handled,
  type RunOptions,
  type SubmissionContext,
} from "./definition";
export { isDatabaseUnavailable } from "./errors.server";
export {
  CHARGED_NOT_SAVED_MESSAGE,
  PAYMENT_CANCELLED_MESSAGE,
  PAYMENT_DECLINED_MESSAGE,
  withNextStep,
  UNAVAILABLE_MESSAGE,
  VOIDED_NOT_SAVED_MESSAGE,
} from "./reply";
