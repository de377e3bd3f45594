import { Banner } from "~/shell/Banner";
import { ManageBooking } from "./ManageBooking";
import { MoveBooking } from "./MoveBooking";
import { MOVE_FORM_ID } from "./move-form";
import type { ManagePageData } from "./manage-page.server";
import type { MoveAnswer } from "./move-form.server";

/** A post's answer on a booking's page: the move form's, or the cancellation's (or a refused post's). */
export type BookingPostAnswer = MoveAnswer | { ok: boolean; message: string };

/**
 * A booking's manage page (/booking/{token}): the banner with its reference, the booking as it is
 * now and, while moving it (?move), the move form. `actionData` is a post's answer when a script
 * posted; without one, the answer kept for the page a no-JS post's 303 led to is shown.
 */
export function BookingPage({
  loaderData,
  actionData: posted,
}: {
  loaderData: ManagePageData;
  actionData?: BookingPostAnswer;
}) {
  // A post's answer: its own page (a script's post), or the one kept for the page its 303 led to.
  const actionData = posted ?? postedAnswer(loaderData.posted);
  return (
    <>
      <Banner
        image="service.svg"
        title="Your Service Visit"
        subtitle={`Booking reference ${loaderData.booking.reference}`}
        breadcrumbs={[
          { label: "Home", to: "/" },
          { label: "Request Service", to: "/request-service" },
          { label: "Your booking" },
        ]}
      />
      <section className="section">
        <div className="shell-container form-page">
          <ManageBooking
            booking={loaderData.booking}
            policy={loaderData.policy}
            changes={loaderData.changes}
            receipt={actionData ? null : loaderData.receipt}
            confirmCancel={!actionData && loaderData.confirmCancel}
            answer={
              actionData && !isMoveAnswer(actionData)
                ? actionData
                : loaderData.moved
                  ? { ok: true, message: loaderData.moved }
                  : null
            }
            moving={Boolean(loaderData.move)}
          >
            {loaderData.move ? (
              <MoveBooking
                formId={MOVE_FORM_ID}
                money={loaderData.booking.money}
                availability={loaderData.move.availability}
                changeKey={loaderData.move.changeKey}
                currentVisit={`${loaderData.booking.serviceDate}|${loaderData.booking.serviceTime}`}
                visit={{ date: loaderData.booking.serviceDate, time: loaderData.booking.serviceTime }}
                answer={actionData && isMoveAnswer(actionData) ? actionData : null}
              />
            ) : null}
          </ManageBooking>
        </div>
      </section>
    </>
  );
}

/** The answer kept for this page after a no-JS post, if it is one this page gives (a move's or a cancellation's). */
function postedAnswer(kept: Record<string, unknown> | null): BookingPostAnswer | undefined {
  if (!kept) return undefined;
  if (isMoveAnswer(kept)) return kept;
  return typeof kept.ok === "boolean" && typeof kept.message === "string"
    ? { ok: kept.ok, message: kept.message }
    : undefined;
}

/** Whether an answer is the move form's (it names its form). */
function isMoveAnswer(answer: object): answer is MoveAnswer {
  return "form" in answer && answer.form === MOVE_FORM_ID;
}
