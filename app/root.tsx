import siteCss from "~/shell/site.css?url";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import { yearInDetroit } from "~/lib/company-time";
import { env } from "~/lib/env.server";
import { getDb } from "~/lib/db.server";
import { useNonce } from "~/lib/nonce";
import { pageCacheMiddleware } from "~/http/page-cache.server";
import { AssetBaseContext } from "~/shell/assets";
import { choosesOwnColorScheme, colorSchemeFromCookie, colorSchemeHeadScript } from "~/shell/color-scheme";
import { FloatingCall } from "~/shell/FloatingCall";
import { pageRunsScripts } from "~/shell/page-scripts";
import { speculationRules } from "~/content/speculation";
import { useHydrationMark } from "~/shell/hydrated";
import { Footer } from "~/shell/Footer";
import { Header } from "~/shell/Header";
import { CartLink } from "~/shop/CartLink";
import { useScrollReveal } from "~/shell/reveal";
import { useSiteLinks } from "~/shell/SiteLink";
import { getShellData } from "~/shell/shell-data.server";
import { headerCartCount } from "~/shop/cart.server";
import { sendsCartCookie } from "~/shop/cart-schema";
import { carriesPostedAnswer } from "~/forms/posted-answer.server";
import { carriesRecentPayment } from "~/forms/recent-payment.server";

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.ico", sizes: "32x32" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "stylesheet", href: siteCss },
];

// The shared cache for pages that opt in. Security headers are not set here:
// pages get theirs from entry.server.tsx (or the page cache), every other
// answer from the server (app/http/security.server.ts says which).
// The requests rendered for one visitor are named by the capabilities whose cookies say so.
export const middleware: Route.MiddlewareFunction[] = [
  pageCacheMiddleware({
    ownPage: (request) =>
      carriesRecentPayment(request) ||
      carriesPostedAnswer(request) ||
      choosesOwnColorScheme(request.headers.get("Cookie")),
    hasCart: sendsCartCookie,
  }),
];

export async function loader({ request }: Route.LoaderArgs) {
  const e = env();
  const [shell, cartCount] = await Promise.all([
    getShellData(getDb()),
    // The header's cart count, only for a visitor with a cart (and then the page is theirs alone:
    // page-cache.server.ts); null otherwise, and the browser asks (app/shop/CartLink.tsx).
    e.SHOP_URL ? null : headerCartCount(getDb, request),
  ]);
  return {
    // The visitor's stored choice, rendered on <html>: "auto" (no choice) follows the OS in CSS.
    // A light or dark choice makes the page the visitor's own: the page cache neither keeps nor
    // serves it (app/http/page-cache.server.ts).
    colorScheme: colorSchemeFromCookie(request.headers.get("Cookie")) ?? "auto",
    siteUrl: e.SITE_URL,
    assetBase: e.ASSET_BASE_URL ?? "",
    shopUrl: e.SHOP_URL,
    year: yearInDetroit(),
    cartCount,
    ...shell,
  };
}

/** The footer and header data do not change between pages. */
export function shouldRevalidate() {
  return false;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const colorScheme = useRouteLoaderData<typeof loader>("root")?.colorScheme ?? "auto";
  // Only a document the server renders goes without the app; once the app runs (a client-side
  // navigation to such a page) it keeps its scripts, scroll restoration and CSS.
  const scripts = pageRunsScripts(useMatches()) || typeof document !== "undefined";
  return (
    // The head script may resolve the attribute before React hydrates: the mismatch is expected.
    // data-scripts="off": the page runs no script, whatever the browser allows (CSS reads it, shell.css).
    <html
      lang="en-US"
      data-mantine-color-scheme={colorScheme}
      data-scripts={scripts ? undefined : "off"}
      suppressHydrationWarning
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1d5c3a" />
        {/* Without the app the server's attribute stands ("auto": CSS follows the OS). */}
        {scripts ? (
          <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: colorSchemeHeadScript }} />
        ) : null}
        <Meta />
        <Links />
        {/* Rules, not a script to run: the browser prerenders the next marketing page on intent. */}
        <script type="speculationrules" nonce={nonce} dangerouslySetInnerHTML={{ __html: speculationRules }} />
      </head>
      <body>
        {/* No MantineProvider here: only the parts with Mantine components have one
            (shell/MantineScope.tsx); the colour scheme is shell/color-scheme.ts. */}
        {children}
        {scripts ? <ScrollRestoration nonce={nonce} /> : null}
        {scripts ? <Scripts nonce={nonce} /> : null}
      </body>
    </html>
  );
}

function Shell({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  useScrollReveal();
  useHydrationMark();
  const prefetch = useSiteLinks();
  return (
    <AssetBaseContext.Provider value={data?.assetBase ?? ""}>
      <Header shopUrl={data?.shopUrl} cart={<CartLink rendered={data?.cartCount ?? null} />} />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      {data ? <Footer locations={data.locations} reviews={data.reviews} year={data.year} /> : null}
      <FloatingCall />
      {prefetch}
    </AssetBaseContext.Provider>
  );
}

export default function App() {
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  let title = "Something went wrong";
  let details = "An unexpected error occurred. Please try again, or call us.";
  if (isRouteErrorResponse(error)) {
    if (error.status === 503) {
      title = "We'll be right back";
      details = "The site is briefly unavailable. Please try again in a moment.";
    } else if (error.status === 404) {
      title = "Page not found";
      details = "The page you asked for does not exist.";
    } else {
      title = `${error.status} ${error.statusText}`;
    }
  }
  return (
    <Shell>
      <section className="shell-container error-page">
        <h1>{title}</h1>
        <p>{details}</p>
        <p>
          <a href="/">Return to the home page</a>
        </p>
      </section>
    </Shell>
  );
}
