import { Banner } from "~/shell/Banner";
import type { ContentPageData } from "../page-types";
import { HomeContent } from "./HomeContent";
import { PageSections } from "./PageSections";

/** A content page: its banner (whose title is the page's h1) and its sections; the footer comes from the shell. */
export function ContentPageView({ data }: { data: ContentPageData }) {
  if (!data.found) {
    // An unknown one-segment path: the home page with a note (DECISIONS 1), like routes/not-found.tsx.
    return (
      <>
        <p className="not-found-note shell-container" role="status">
          We could not find that page, so here is our home page.
        </p>
        <HomeContent />
      </>
    );
  }
  const { page } = data;
  return (
    <div className="content-page" data-page={page.path}>
      <Banner
        image={page.banner.image}
        title={page.banner.title}
        subtitle={page.banner.subtitle}
        breadcrumbs={page.banner.crumbs}
      />
      <PageSections data={data} />
    </div>
  );
}
