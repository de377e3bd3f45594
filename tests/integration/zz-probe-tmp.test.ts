import { afterAll, beforeAll, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { rescheduleBooking } from "~/booking/reschedule.server";
import { answerMove } from "~/booking/move-form.server";
import { runForm, type FormDefinition } from "~/forms/pipeline";
import { addDays } from "~/forms/residential/availability";
import { residentialServiceForm } from "~/forms/residential/handle.server";
import { todayInDetroit } from "~/lib/company-time";
import { weekdayOf } from "~/payments/service-price";
import { createTestDatabase } from "../support/db";
import { formPost, honeypotFields, nextIp, rows, sumAnswer, toFormData } from "./forms-support";
import { residentialFields } from "./payments-support";
let conn: Connection;
beforeAll(async () => { conn = await createTestDatabase({ seed: false }); });
afterAll(async () => { await conn?.close(); });
it("probe", async () => {
  let date = addDays(todayInDetroit(), 14);
  while (weekdayOf(date) !== 2) date = addDays(date, 1);
  const fields = residentialFields(date);
  const body = toFormData({ ...fields, ...honeypotFields(), ...sumAnswer(), submission_key: crypto.randomUUID() });
  const outcome = await runForm(residentialServiceForm as FormDefinition, formPost("/request-service", body), { db: conn.db, clientIp: nextIp() });
  const token = /^\/booking\/([A-Za-z0-9_-]{43})\?booked$/.exec(outcome.redirectTo!)![1]!;
  for (const d of ["2027-02-30", "2027-02-29", "2026-12-32"]) {
    try {
      const r = await rescheduleBooking(conn.db, token, { serviceDate: d, serviceTime: "Morning (8 AM to 11 AM)", changeKey: crypto.randomUUID() });
      console.log(d, JSON.stringify(r));
    } catch (e) { console.log(d, "THROWS", (e as Error).message.slice(0, 200)); }
    try {
      const fd = toFormData({ intent: "move", changeKey: "k".repeat(24) + d, serviceDate: d, serviceTime: "Morning (8 AM to 11 AM)" });
      const r = await answerMove(conn.db, token, fd, null);
      console.log("form", d, JSON.stringify(r?.message));
    } catch (e) { console.log("form", d, "THROWS", (e as Error).message.slice(0, 200)); }
  }
  console.log(JSON.stringify(await rows(conn.db, "select * from service_slot_holds")));
  expect(1).toBe(1);
});
