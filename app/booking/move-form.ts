/** The move form of a booking's page: its id (which answer is its) and its submit button's intent. Client-safe. */
export const MOVE_FORM_ID = "move-booking";
export const MOVE_INTENT = "move";
