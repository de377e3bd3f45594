import { lazy } from "react";
import { Banner } from "~/shell/Banner";
import type { ContentPageData } from "../page-types";
import { PageSections, type QuoteFormRenderer } from "./PageSections";

// Only unknown paths need the home page's sections: their code is fetched when
// one is shown, not preloaded with every content page. No Suspense boundary:
// the server still sends the whole page, and hydration waits for the chunk.
// (routes/not-found.tsx imports it statically: rolldown notes that, harmlessly.)
const NotFoundContent = lazy(() => import("./NotFoundContent").then((m) => ({ default: m.NotFoundContent })));

/** A content page: its banner (whose title is the page's h1) and its sections; the footer comes from the shell. */
export function ContentPageView({
  data,
  renderQuoteForm,
}: {
  data: ContentPageData;
  renderQuoteForm?: QuoteFormRenderer;
}) {
  // An unknown one-segment path: the home page with a note (DECISIONS 1), as routes/not-found.tsx.
  if (!data.found) return <NotFoundContent />;
  const { page } = data;
  return (
    <div className="content-page" data-page={page.path}>
      <Banner
        image={page.banner.image}
        title={page.banner.title}
        subtitle={page.banner.subtitle}
        breadcrumbs={page.banner.crumbs}
      />
      <PageSections data={data} renderQuoteForm={renderQuoteForm} />
    </div>
  );
}
