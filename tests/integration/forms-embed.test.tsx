import { MantineProvider } from "@mantine/core";
import { renderToString } from "react-dom/server";
import {
  createStaticHandler,
  createStaticRouter,
  RouterContextProvider,
  StaticRouterProvider,
  useLoaderData,
  type RouteObject,
} from "react-router";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The embedded form's action uses the server's own database module: point it at a
// fresh database (in memory, or a new one on the PostgreSQL server of DATABASE_URL).
process.env.DATA_DIR = "memory://";
const serverUrl = process.env.DATABASE_URL;
const scratch = `t_embed_${Date.now().toString(36)}`;
if (serverUrl) {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${scratch}"`);
  await admin.end();
  const u = new URL(serverUrl);
  u.pathname = `/${scratch}`;
  process.env.DATABASE_URL = u.toString();
}

const { connect } = await import("~/lib/db.server");
const { ContactForm } = await import("~/forms/contact/Form");
const { SimpleQuoteForm } = await import("~/forms/quote/Form");
const { formBootstrap, simpleQuoteAction } = await import("~/forms/quote/embed.server");
const { rows, sumAnswer, toFormData, honeypotFields } = await import("./forms-support");
const { clientIpContext } = await import("~/http/client-ip.server");

/**
 * The embed contract for pages owned by other capabilities: a product page
 * re-exports `simpleQuoteAction` and puts `formBootstrap()` in its loader;
 * without JavaScript the page itself re-renders with the result, its errors
 * and the visitor's values. Rendered here with React Router's static handler,
 * as the server does.
 */
type Bootstrap = ReturnType<typeof formBootstrap>;

function ProductPage() {
  const { leadForm } = useLoaderData() as { leadForm: Bootstrap };
  return (
    <MantineProvider>
      <h1>Residential Garage Doors</h1>
      <SimpleQuoteForm quoteType="Residential" bootstrap={leadForm} />
      <ContactForm bootstrap={leadForm} action="/contact" />
    </MantineProvider>
  );
}

const routes: RouteObject[] = [
  {
    path: "/residential-garage-doors",
    loader: () => ({ leadForm: formBootstrap() }),
    action: ({ request, context }) => simpleQuoteAction({ request, context }),
    Component: ProductPage,
  },
];

async function render(request: Request) {
  const handler = createStaticHandler(routes);
  // The server hands the app the visitor's IP in the load context (app/http/client-ip.server.ts).
  const requestContext = new RouterContextProvider();
  requestContext.set(clientIpContext, "192.0.2.77");
  const context = await handler.query(request, { requestContext });
  if (context instanceof Response) throw new Error(`unexpected response ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return {
    status: context.statusCode,
    html: renderToString(<StaticRouterProvider router={router} context={context} />),
  };
}

const url = "http://localhost:3000/residential-garage-doors";
const post = (fields: FormData) =>
  new Request(url, { method: "POST", body: fields, headers: { Origin: "http://localhost:3000" } });

beforeAll(async () => {
  await connect();
});
afterAll(async () => {
  await (await connect()).close();
  if (serverUrl) {
    process.env.DATABASE_URL = serverUrl;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists "${scratch}" with (force)`);
    await admin.end();
  }
});

describe("SimpleQuoteForm embedded on a product page", () => {
  it("renders a real form posting to the host page, with the no-JS sum and the honeypot", async () => {
    const { html, status } = await render(new Request(url));
    expect(status).toBe(200);
    expect(html).toContain('action="/residential-garage-doors#simple-quote-status"');
    expect(html).toContain('name="quote_type" value="Residential"');
    expect(html).toMatch(/What is \d \+ \d\?/);
    expect(html).toContain('name="captcha_answer"');
    expect(html).toContain('name="name__confirm"');
    // The contact form can post to /contact instead of its host page.
    expect(html).toContain('action="/contact#contact-status"');
    for (const name of [
      "first_name",
      "last_name",
      "phone",
      "email",
      "zip",
      "contact_method",
      "quote_for",
      "description",
      "start_time",
      "consultation",
      "financing",
    ]) {
      expect(html, name).toContain(`name="${name}"`);
    }
    expect(html).not.toContain('name="existing_customer"');
    expect(html).not.toContain('name="business_name"');
    expect(html).not.toContain('type="file"');
  });

  it("without JavaScript: errors beside the fields and the values kept, on the same page", async () => {
    const { html, status } = await render(
      post(
        toFormData({
          first_name: "Ada",
          email: "ada@example.com",
          quote_for: ["Windows"],
          quote_type: "Residential",
          ...honeypotFields(),
          ...sumAnswer(),
        }),
      ),
    );
    expect(status).toBe(400);
    expect(html).toContain("Last Name is required.");
    expect(html).toContain("ZIP Code is required.");
    expect(html).toContain('value="Ada"');
    expect(html).toMatch(/value="Windows"[^>]*checked|checked[^>]*value="Windows"/);
    expect(html).toContain("Please correct the highlighted fields and send the form again.");
    expect(await rows((await connect()).db, "select id from quote_requests")).toHaveLength(0);
  });

  it("a valid quote is stored with source 'simple' and the host page, and the page says so", async () => {
    const { html, status } = await render(
      post(
        toFormData({
          first_name: "Ada",
          last_name: "Lovelace",
          phone: "(810) 555-0142",
          email: "ada@example.com",
          zip: "48532",
          contact_method: "Text",
          quote_for: ["Garage Doors", "Garage Door Opener"],
          start_time: "2 - 3 Weeks",
          consultation: "In-Home",
          financing: "No",
          quote_type: "Residential",
          ...honeypotFields(),
          ...sumAnswer(),
        }),
      ),
    );
    expect(status).toBe(200);
    expect(html).toContain("Submitted successfully! A representative will reach out within 48 hours.");
    expect(html).not.toContain('value="Lovelace"');
    const [row] = await rows<Record<string, unknown>>(
      (await connect()).db,
      "select source, quote_type, page, client_ip, quote_for from quote_requests",
    );
    expect(row).toMatchObject({
      source: "simple",
      quote_type: "Residential",
      page: "/residential-garage-doors",
      client_ip: "192.0.2.77",
      quote_for: ["Garage Doors", "Garage Door Opener"],
    });
  });
});
