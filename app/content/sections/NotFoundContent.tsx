import { HomeContent } from "./HomeContent";

/** DECISIONS 1: an unknown path shows the home page (status 404, noindex, canonical "/"). */
export function NotFoundContent() {
  return (
    <>
      <p className="not-found-note shell-container" role="status">
        We could not find that page, so here is our home page.
      </p>
      <HomeContent />
    </>
  );
}
