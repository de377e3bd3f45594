// The ceiling of a form post, for `npm run bench` (scripts/bench.mjs): a bare
// node:http handler that reads the same urlencoded contact body and writes
// the same rows as the site's no-JS contact post (a contact_submissions row
// and two outbox rows with their two pg-boss jobs, one transaction, postgres-js) and nothing more: no
// origin check, rate limit, captcha, validation, e-mail rendering or page.
//   node scripts/bench-form-ceiling.mjs <port> <postgres url> <pool size>
import { createServer } from "node:http";
import postgres from "postgres";

const [port, url, poolSize] = process.argv.slice(2);
const sql = postgres(url, { max: Number(poolSize), onnotice: () => {} });
// Its jobs go to a queue of their own that no worker takes: the site's mail worker must not spend
// the ceiling's turns delivering the ceiling's mail.
await sql`select pgboss.create_queue('bench_ceiling', '{"policy":"standard"}')`;

createServer((request, response) => {
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", async () => {
    const fields = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
    const field = (name) => fields.get(name) ?? "";
    try {
      await sql.begin(async (tx) => {
        const [row] = await tx`
          insert into contact_submissions (first_name, last_name, email, phone, details, page, client_ip)
          values (${field("first_name")}, ${field("last_name")}, ${field("email")}, ${field("phone")}, ${field("details")}, '/ceiling', ${request.socket.remoteAddress ?? null})
          returning id`;
        const subject = `New contact message #${row.id} from ${field("first_name")} ${field("last_name")}`;
        await tx`
          with mail as (
            insert into outbox ("to", reply_to, subject, text, source_table, source_id, kind) values
              ('office@example.com', ${field("email")}, ${subject}, ${field("details")}, 'contact_submissions', ${row.id}, 'company'),
              (${field("email")}, 'office@example.com', 'We received your contact message', ${field("details")}, 'contact_submissions', ${row.id}, 'confirmation')
            returning id
          )
          insert into pgboss.job (name, data) select 'bench_ceiling', json_build_object('outboxId', id)::jsonb from mail`;
      });
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<p>Your message has been sent!</p>");
    } catch (error) {
      response.writeHead(500, { "content-type": "text/plain" }).end(String(error.message));
    }
  });
}).listen(Number(port), "127.0.0.1", () => process.send?.("listening"));
