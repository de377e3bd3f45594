// Ten years of the site's use, loaded into a scratch database with generate_series (`--history`,
// history.mjs): leads, bookings with their payments and history, orders with their lines, invoice
// payments, the outbox, and what the hourly housekeeping leaves of the short-lived tables. Plain
// SQL taken from tests/integration/background-plans.test.ts, scaled by counts: scale 1 is ten
// years (BENCH_HISTORY_SCALE), and every row a foreign key names exists.

/** Row counts at scale 1 (ten years). */
const TEN_YEARS = {
  contacts: 150_000,
  quotes: 100_000,
  commercial: 30_000,
  promos: 20_000,
  bookings: 150_000,
  orders: 50_000,
  invoices: 50_000,
  mails: 2_000_000,
  shortLived: 20_000,
};
/** First payment id of each kind of payment, so that every kind is one range of ids. */
const ORDER_PAYMENTS = 10_000_000;
const INVOICE_PAYMENTS = 20_000_000;
const REFUNDS = 30_000_000;
const DECLINED = 40_000_000;
/** One booking in this many was cancelled (refunded); one in this many others was moved. */
const CANCEL_EVERY = 21;
/** Mails of the history still pending when the round starts. */
const PENDING_MAILS = 3;

/** The counts for `scale` (1 = ten years); at least one row of each, so every page has a record to show. */
export function historyCounts(scale) {
  return Object.fromEntries(Object.entries(TEN_YEARS).map(([k, n]) => [k, Math.max(1, Math.round(n * scale))]));
}

/** SQL for row `i` of `n`'s time: spread evenly over ten years, the newest a day old. */
const spread = (n, i = "i") =>
  `(now() - interval '1 day' - (${n} - ${i}) * interval '${Math.round((3650 * 86400) / n)} seconds')`;

/** The manage-link token the bench gives booking `id` (43 characters, as the site's own). */
export const bookingToken = (id) => `b${String(id).padStart(42, "0")}`;
/** The order page's token the bench gives order `id`. */
export const orderToken = (id) => `o${String(id).padStart(42, "0")}`;
/** SQL for the SHA-256 hex of a token expression, as the site stores it (~/lib/link-token.server.ts). */
const tokenHash = (expr) => `encode(sha256(convert_to(${expr}, 'UTF8')), 'hex')`;

/** Contact messages, quote requests, commercial service requests and promotion sign-ups. */
async function loadLeads(sql, c) {
  await sql.unsafe(`
    insert into contact_submissions (created_at, first_name, last_name, email, phone, details, page, client_ip)
    select ${spread(c.contacts)}, 'First' || i, 'Last' || i, 'c' || i || '@example.com', '(248) 555-0100',
      'Message ' || i || ': my garage door is stuck.', '/contact', '10.0.' || (i % 250) || '.' || (i % 199)
    from generate_series(1, ${c.contacts}) as g(i)`);
  await sql.unsafe(`
    insert into quote_requests (created_at, source, quote_type, first_name, last_name, phone, email, zip, description,
      contact_method, quote_for, financing, consultation, start_time, page)
    select ${spread(c.quotes)}, case when i % 3 = 0 then 'simple' else 'full' end,
      case when i % 5 = 0 then 'Commercial' else 'Residential' end, 'Quote' || i, 'Asker', '(248) 555-0101',
      'q' || i || '@example.com', '48083', 'A new door, please.', 'Email', array['Garage door'], 'No', 'No',
      'Within a month', '/request-quote'
    from generate_series(1, ${c.quotes}) as g(i)`);
  await sql.unsafe(`
    insert into service_requests (created_at, kind, name, phone, email, address1, city, state, zip, country,
      service_date, service_time, contact_method)
    select t, 'commercial', 'Business ' || i, '(248) 555-0101', 'b' || i || '@example.com', i || ' Industrial Dr',
      'Troy', 'MI', '48083', 'United States', t::date + 7, 'Morning (8 AM to 11 AM)', 'Email'
    from generate_series(1, ${c.commercial}) as g(i) cross join lateral (select ${spread(c.commercial)} as t) as x`);
  await sql.unsafe(`
    insert into promo_signups (created_at, first_name, last_name, email, phone, product)
    select ${spread(c.promos)}, 'Promo' || i, 'Signer', 'p' || i || '@example.com', '(248) 555-0105', 'Garage door'
    from generate_series(1, ${c.promos}) as g(i)`);
}

/** Booking charges (ids 1…bookings), a declined attempt for one in ten, a refund for each cancelled booking. */
async function loadBookingPayments(sql, n) {
  const columns = `id, created_at, updated_at, kind, state, amount_cents, purpose, intent, parent_id, idempotency_key,
    processor, processor_transaction_id, brand, last4, message, reference_table, reference_id, resolved_at`;
  await sql.unsafe(`
    insert into payments (${columns})
    select i, t, t + interval '2 seconds', 'charge', 'succeeded', 15900 + (i % 7) * 1000, 'service', 'book', null,
      'render-' || i, 'sandbox', 'sbx_' || lpad(i::text, 24, '0'), 'Visa', '4242', null, 'service_requests', i,
      t + interval '2 seconds'
    from generate_series(1, ${n}) as g(i) cross join lateral (select ${spread(n)} as t) as x`);
  await sql.unsafe(`
    insert into payments (${columns})
    select ${DECLINED} + i, created_at - interval '1 minute', created_at - interval '1 minute', 'charge', 'declined',
      amount_cents, 'service', 'book', null, 'declined-' || i, 'sandbox', null, 'Visa', '0002',
      'Your card was declined.', null, null, null
    from payments as p cross join lateral (select p.id as i) as x where p.id <= ${n} and p.id % 10 = 5`);
  await sql.unsafe(`
    insert into payments (${columns})
    select ${REFUNDS} + id, created_at + interval '3 days', created_at + interval '3 days', 'refund', 'succeeded',
      amount_cents, 'service', 'cancel', id, 'chg' || id || ':' || id, 'sandbox', 'sbx_r' || lpad(id::text, 23, '0'),
      brand, last4, null, 'service_requests', id, created_at + interval '3 days'
    from payments where id <= ${n} and id % ${CANCEL_EVERY} = 0`);
}

/** Residential bookings (one per charge, the newest still ahead), and their history rows. */
async function loadBookings(sql, n) {
  await sql.unsafe(`
    insert into service_requests (created_at, kind, name, phone, email, address1, city, state, zip, country,
      service_date, service_time, contact_method, total_cents, payment_status, payment_id, payment_transaction_id,
      card_brand, card_last4, reference, manage_token_hash, booking_status)
    select created_at, 'residential', 'Visitor ' || id, '(248) 555-0100', 'v' || id || '@example.com',
      id || ' Main St', 'Troy', 'MI', '48083', 'United States', (created_at + interval '6 days')::date,
      (array['Morning (8 AM to 11 AM)', 'Afternoon (11 AM to 2 PM)', 'Late Afternoon (2 PM to 4 PM)', 'Evening (After 4 PM)'])[id % 4 + 1],
      'Phone', amount_cents, 'paid', id, processor_transaction_id, brand, last4, 'DV-' || id,
      ${tokenHash(`'b' || lpad(id::text, 42, '0')`)},
      case when id % ${CANCEL_EVERY} = 0 then 'cancelled' when id % ${CANCEL_EVERY} = 1 then 'rescheduled' else 'booked' end
    from payments where id <= ${n} order by id`);
  await sql.unsafe(`
    insert into booking_events (service_request_id, created_at, kind, from_date, from_time, to_date, to_time,
      payment_id, amount_cents, note, change_key)
    select s.id, s.created_at, 'booked', null, null, s.service_date, s.service_time, s.payment_id, s.total_cents, null, null
      from service_requests s where s.kind = 'residential'
    union all
    select s.id, s.created_at + interval '1 day', 'rescheduled', s.service_date - 1, s.service_time, s.service_date,
      s.service_time, null, 0, null, 'move' || s.id
      from service_requests s where s.kind = 'residential' and s.payment_id % ${CANCEL_EVERY} = 1
    union all
    select s.id, s.created_at + interval '4 days', 'reminder sent', null, null, s.service_date, s.service_time, null,
      null, 'Reminder e-mailed.', null
      from service_requests s where s.kind = 'residential' and s.payment_id % ${CANCEL_EVERY} <> 0
    union all
    select s.id, s.created_at + interval '3 days', 'cancelled', null, null, null, null, ${REFUNDS} + s.payment_id,
      -s.total_cents, null, 'chg' || s.payment_id
      from service_requests s where s.kind = 'residential' and s.payment_id % ${CANCEL_EVERY} = 0`);
}

/** Paid orders (one line each, the catalogue's product kept as a name) and paid invoices, with their charges. */
async function loadOrdersAndInvoices(sql, c) {
  const charge = (offset, n, purpose, intent, table) => `
    insert into payments (id, created_at, updated_at, kind, state, amount_cents, purpose, intent, idempotency_key,
      processor, processor_transaction_id, brand, last4, reference_table, reference_id, resolved_at)
    select ${offset} + i, t, t + interval '2 seconds', 'charge', 'succeeded', 49900 + (i % 9) * 10000, '${purpose}',
      '${intent}', '${purpose}-' || i, 'sandbox', 'sbx_${purpose[0]}' || lpad(i::text, 23, '0'), 'Visa', '4242',
      '${table}', i, t + interval '2 seconds'
    from generate_series(1, ${n}) as g(i) cross join lateral (select ${spread(n)} as t) as x`;
  await sql.unsafe(charge(ORDER_PAYMENTS, c.orders, "order", "checkout", "orders"));
  await sql.unsafe(charge(INVOICE_PAYMENTS, c.invoices, "invoice", "invoice", "invoice_payments"));
  await sql.unsafe(`
    insert into orders (id, created_at, cart_id, status, total_cents, payment_id, card_brand, card_last4, name, email,
      phone, address, city, state, zip, reference, order_page_token_hash, order_status, installation_address,
      installation_city, installation_state, installation_zip)
    select reference_id, created_at, gen_random_uuid(), 'paid', amount_cents, id, brand, last4, 'Buyer ' || reference_id,
      'o' || reference_id || '@example.com', '(248) 555-0102', reference_id || ' Oak St', 'Troy', 'MI', '48083',
      'DO-' || reference_id, ${tokenHash(`'o' || lpad(reference_id::text, 42, '0')`)},
      case when created_at > now() - interval '30 days' then 'received' else 'installed' end,
      reference_id || ' Oak St', 'Troy', 'MI', '48083'
    from payments where purpose = 'order'`);
  await sql.unsafe(
    `insert into order_lines (order_id, name, price_cents, quantity) select id, 'Garage door', total_cents, 1 from orders`,
  );
  await sql.unsafe(`
    insert into invoice_payments (id, created_at, reference, status, payment_id, invoice_number, amount_cents, name,
      email, address, city, state, zip, card_holder)
    select reference_id, created_at, 'DP-' || reference_id, 'paid', id, 'INV-' || reference_id, amount_cents,
      'Payer ' || reference_id, 'i' || reference_id || '@example.com', reference_id || ' Elm St', 'Troy', 'MI', '48083',
      'Payer ' || reference_id
    from payments where purpose = 'invoice'`);
  await sql.unsafe(`
    insert into sandbox_transactions (id, created_at, type, status, reference, parent_id, amount_cents, settles_at, brand, last4, message)
    select coalesce(p.processor_transaction_id, 'sbx_d' || lpad(p.id::text, 23, '0')), p.created_at, p.kind,
      case when p.state = 'declined' then 'declined' else 'approved' end, 'L' || p.id,
      (select c.processor_transaction_id from payments c where c.id = p.parent_id), p.amount_cents,
      case when p.state <> 'declined' then p.created_at + interval '1 day' end, p.brand, p.last4,
      case when p.state = 'declined' then 'Your card was declined.' else 'Approved.' end
    from payments p`);
}

/** First id of the ledger rows left open for the reconciler (and of the records they serve). */
const OPEN = 50_000_000;

/**
 * What a crash, a lost answer or a give-back waiting for its settlement leaves open, an hour old,
 * one of each rule of the ledger's reconciler (as the test leaves them): a charge never answered
 * that the processor has no record of; a booking, an order and an invoice payment stored pending;
 * money taken with nothing standing on it; cancels' refunds requested or unanswered. Loaded just
 * before the background round (history.mjs), with the server stopped: the server's own reconciler
 * would settle them first.
 */
export async function loadOpenRows(sql, bookings) {
  const [a, b, c, d, e, f, g, h, i] = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((k) => OPEN + k);
  const charges = await sql.unsafe(
    `select id from payments where id <= ${bookings} and id % ${CANCEL_EVERY} <> 0 order by id desc limit 3`,
  );
  const [e1, g1, i1] = [0, 1, 2].map((k) => charges[Math.min(k, charges.length - 1)].id);
  const ago = "now() - interval '1 hour'";
  await sql.unsafe(`insert into payments (id, created_at, updated_at, kind, state, amount_cents, purpose, intent,
    parent_id, idempotency_key, processor, processor_transaction_id, brand, last4, reference_table, reference_id, resolved_at) values
    (${a}, ${ago}, ${ago}, 'charge', 'requested', 15900, 'service', 'book', null, 'open-a', 'sandbox', null, null, null, null, null, null),
    (${b}, ${ago}, ${ago}, 'charge', 'unknown', 15900, 'service', 'book', null, 'open-b', 'sandbox', null, 'Visa', '4242', 'service_requests', ${b}, ${ago}),
    (${c}, ${ago}, ${ago}, 'charge', 'unknown', 99900, 'order', 'checkout', null, 'open-c', 'sandbox', null, 'Visa', '4242', 'orders', ${c}, ${ago}),
    (${d}, ${ago}, ${ago}, 'charge', 'succeeded', 15900, 'service', 'book', null, 'open-d', 'sandbox', 'sbx_open_d', 'Visa', '4242', null, null, null),
    (${e}, ${ago}, ${ago}, 'refund', 'requested', 2000, 'service', 'cancel', ${e1}, 'chgE:${e1}', 'sandbox', null, 'Visa', '4242', 'service_requests', ${e1}, null),
    (${f}, ${ago}, ${ago}, 'charge', 'unknown', 25050, 'invoice', 'invoice', null, 'open-f', 'sandbox', null, 'Visa', '4242', 'invoice_payments', ${f}, ${ago}),
    (${g}, ${ago}, ${ago}, 'refund', 'requested', 2000, 'service', 'cancel', ${g1}, 'chgG:${g1}', 'sandbox', null, 'Visa', '4242', 'service_requests', ${g1}, ${ago}),
    (${h}, ${ago}, ${ago}, 'charge', 'unknown', 15900, 'service', 'book', null, 'open-h', 'sandbox', null, 'Visa', '4242', 'service_requests', ${h}, ${ago}),
    (${i}, ${ago}, ${ago}, 'refund', 'unknown', 2000, 'service', 'cancel', ${i1}, 'chgI:${i1}', 'sandbox', null, 'Visa', '4242', 'service_requests', ${i1}, null)`);
  await sql.unsafe(`
    insert into sandbox_transactions (id, created_at, type, status, reference, amount_cents, settles_at, brand, last4, message) values
    ('sbx_open_b', ${ago}, 'charge', 'approved', 'L${b}', 15900, now() + interval '1 day', 'Visa', '4242', 'Approved.'),
    ('sbx_open_d', ${ago}, 'charge', 'approved', 'L${d}', 15900, now() + interval '1 day', 'Visa', '4242', 'Approved.'),
    ('sbx_open_f', ${ago}, 'charge', 'approved', 'L${f}', 25050, now() + interval '1 day', 'Visa', '4242', 'Approved.')`);
  await sql.unsafe(`
    insert into service_requests (id, kind, name, phone, email, address1, city, state, zip, country, service_date,
      service_time, contact_method, total_cents, payment_status, payment_id, card_brand, card_last4, reference,
      manage_token_hash, booking_status)
    select id, 'residential', 'Pending Visitor', '(248) 555-0103', 'pending@example.com', '1 Pending St', 'Troy', 'MI',
      '48083', 'United States', current_date + 10, 'Morning (8 AM to 11 AM)', 'Phone', 15900, 'pending', id, 'Visa',
      '4242', 'DV-PENDING-' || id, md5('pending' || id), 'booked'
    from unnest(array[${b}, ${h}]) as id`);
  await sql.unsafe(`
    insert into booking_events (service_request_id, created_at, kind, payment_id, amount_cents, change_key)
    select s.id, ${ago}, 'cancelled', x.refund, -2000, x.change
    from (values (${e1}, ${e}, 'chgE'), (${g1}, ${g}, 'chgG'), (${i1}, ${i}, 'chgI')) as x(charge, refund, change)
    join service_requests s on s.payment_id = x.charge and s.kind = 'residential'`);
  await sql.unsafe(`
    insert into orders (id, cart_id, status, total_cents, payment_id, name, email, phone, address, city, state, zip, reference)
    values (${c}, gen_random_uuid(), 'pending', 99900, ${c}, 'Pending Buyer', 'buyer@example.com', '(248) 555-0104',
      '2 Pending St', 'Troy', 'MI', '48083', 'DO-PENDING')`);
  await sql.unsafe(`
    insert into invoice_payments (id, reference, status, payment_id, invoice_number, amount_cents, name, email, address,
      city, state, zip, card_holder)
    values (${f}, 'DP-PENDING', 'pending', ${f}, 'INV-PENDING', 25050, 'Pending Payer', 'payer@example.com',
      '3 Pending St', 'Troy', 'MI', '48083', 'Pending Payer')`);
}

/** Ten years of mail: bodies cleared after 30 days, one in 400 failed, the newest few still pending. */
async function loadOutbox(sql, mails) {
  await sql.unsafe(`
    insert into outbox (created_at, "to", mailbox, subject, text, content, status, attempts, sent_at, source_table,
      source_id, kind, cleared_at)
    select t, 'v' || j || '@example.com', 'v' || j || '@example.com', 'Mail ' || j,
      case when cleared then '' else 'Body ' || j end,
      case when not cleared then '{"title":"t","intro":"i","rows":[]}'::jsonb end,
      status, case when status = 'pending' then 0 else 1 end, case when status = 'sent' then t + interval '1 minute' end,
      'contact_submissions', j, (array['company', 'confirmation', 'receipt'])[j % 3 + 1],
      case when cleared then t + interval '30 days 30 minutes' end
    from generate_series(1, ${mails}) as g(j)
    cross join lateral (select ${spread(mails, "j")} as t) as x
    cross join lateral (select case when j > ${mails} - ${PENDING_MAILS} then 'pending' when j % 400 = 0 then 'failed' else 'sent' end as status) as s
    cross join lateral (select s.status <> 'pending' and t < now() - interval '30 days 1 hour' as cleared) as c`);
}

/**
 * What the hourly housekeeping leaves (one in a hundred rows past its time, the rest live): spent
 * captchas, rate limits, carts with an item, submission keys and claims, posted answers, and the
 * mail jobs of the last week (pg-boss deletes them after seven days).
 */
async function loadShortLived(sql, n, mails) {
  const old = (k, gone, live) => `case when ${k} % 100 = 0 then now() - interval '${gone}' else ${live} end`;
  await sql.unsafe(`
    insert into captcha_spent (token_hash, expires_at)
    select md5('token' || k), case when k % 100 = 0 then now() - interval '5 minutes' else now() + (k % 120 + 1) * interval '1 minute' end
    from generate_series(1, ${n}) as g(k)`);
  await sql.unsafe(`
    insert into rate_limits (key, window_start, count, expires_at)
    select 'contact:10.' || (k / 256) || '.' || (k % 256), w, 1, w + interval '1 hour'
    from generate_series(1, ${n}) as g(k)
    cross join lateral (select ${old("k", "2 hours", "now() - interval '10 minutes'")} as w) as x`);
  await sql.unsafe(`
    insert into carts (id, created_at, updated_at)
    select gen_random_uuid(), t, t from generate_series(1, ${n}) as g(k)
    cross join lateral (select ${old("k", "100 days", "now() - (k % 90) * interval '1 day'")} as t) as x`);
  await sql.unsafe(`insert into cart_items (cart_id, product_id, created_at)
    select c.id, (select min(id) from products), c.created_at from carts c where exists (select 1 from products)`);
  await sql.unsafe(`
    insert into submission_keys (key, form, submission_table, submission_id, created_at)
    select 'key-' || k, 'contact', 'contact_submissions', k, ${old("k", "40 days", "now() - (k % 29) * interval '1 day'")}
    from generate_series(1, ${n}) as g(k)`);
  await sql.unsafe(`
    insert into submission_claims (key, form, state, status, message, updated_at)
    select 'claim-' || k, 'service', case when k % 2 = 0 then 'refused' else 'running' end,
      case when k % 2 = 0 then 402 end, case when k % 2 = 0 then 'Your card was declined.' end,
      ${old("k", "2 days", "now() - (k % 20) * interval '1 hour'")}
    from generate_series(1, ${n}) as g(k)`);
  await sql.unsafe(`
    insert into posted_answers (id, form, path_hash, answer, created_at)
    select 'answer-' || k, 'invoice', md5('path' || k), '{}'::jsonb, ${old("k", "2 hours", "now() - (k % 55) * interval '1 minute'")}
    from generate_series(1, ${n}) as g(k)`);
  await loadJobs(sql, Math.max(1, Math.round(mails / 520)));
}

/** A week of completed mail jobs in pg-boss's queue (when the server made its schema); skipped otherwise. */
async function loadJobs(sql, n) {
  const [{ found }] = await sql`select to_regclass('pgboss.job') is not null as found`;
  if (!found) return;
  await sql.unsafe(`
    insert into pgboss.job (name, data, state, created_on, started_on, completed_on)
    select 'mail', jsonb_build_object('outboxId', k), 'completed', t, t + interval '1 second', t + interval '2 seconds'
    from generate_series(1, ${n}) as g(k)
    cross join lateral (select now() - interval '7 days' + k * (interval '7 days' / ${n}) as t) as x`);
}

/**
 * Loads ten years × `scale` of history into the (migrated, empty) database behind `sql` (a
 * postgres-js client), then ANALYZEs it. Returns the counts loaded and the ids whose pages the
 * bench reads: the newest booking's payment and order, and the newest invoice's payment.
 */
export async function loadHistory(sql, scale) {
  const c = historyCounts(scale);
  await loadLeads(sql, c);
  await loadBookingPayments(sql, c.bookings);
  await loadBookings(sql, c.bookings);
  await loadOrdersAndInvoices(sql, c);
  await sql.unsafe(`select setval(pg_get_serial_sequence('payments', 'id'), ${OPEN * 2})`);
  for (const table of ["service_requests", "orders", "invoice_payments"])
    await sql.unsafe(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`);
  await loadOutbox(sql, c.mails);
  await loadShortLived(sql, c.shortLived, c.mails);
  await sql.unsafe("analyze");
  return {
    counts: c,
    bookingPayment: c.bookings,
    order: c.orders,
    invoicePayment: INVOICE_PAYMENTS + c.invoices,
  };
}
