import type { ContentPageData, Section } from "../page-types";
import { AccordionSection } from "./AccordionSection";
import { CtaSection } from "./CtaSection";
import { FeatureGrid, StepsSection } from "./FeatureGrid";
import { GallerySection } from "./Gallery";
import { IntroSection } from "./IntroSection";
import { ChecklistSection, SpecsSection, SwatchesSection, TimelineSection } from "./ListSections";
import { ModelsSection } from "./ModelsSection";
import { ProseSection } from "./ProseSection";
import { ProductCardGrid } from "./ProductCardGrid";
import { LocationReviewsSection, ReviewListSection } from "./ReviewSections";
import { ServiceMapSection } from "./ServiceMapSection";
import { VideoSection } from "./VideoSection";

type Found = Extract<ContentPageData, { found: true }>;

/**
 * Renders the simple quote form section. Given only by routes/product-page.tsx,
 * so the form's code loads on the pages that show it and nowhere else.
 */
export type QuoteFormRenderer = (type: "residential" | "commercial", data: Found) => React.ReactNode;

/** Renders a page's sections, one component per kind. */
export function PageSections({ data, renderQuoteForm }: { data: Found; renderQuoteForm?: QuoteFormRenderer }) {
  return (
    <>
      {data.page.sections.map((section, i) => (
        <SectionView key={`${section.kind}-${i}`} section={section} data={data} renderQuoteForm={renderQuoteForm} />
      ))}
    </>
  );
}

function SectionView({
  section,
  data,
  renderQuoteForm,
}: {
  section: Section;
  data: Found;
  renderQuoteForm?: QuoteFormRenderer;
}) {
  switch (section.kind) {
    case "intro":
      return <IntroSection section={section} />;
    case "features":
      return <FeatureGrid section={section} />;
    case "steps":
      return <StepsSection section={section} />;
    case "cards":
      return (
        <ProductCardGrid id={section.id} heading={section.heading} subtitle={section.subtitle} cards={section.cards} />
      );
    case "gallery":
      return <GallerySection section={section} />;
    case "accordion":
      return <AccordionSection section={section} />;
    case "checklist":
      return <ChecklistSection section={section} />;
    case "specs":
      return <SpecsSection section={section} />;
    case "timeline":
      return <TimelineSection section={section} />;
    case "swatches":
      return <SwatchesSection section={section} />;
    case "models":
      return <ModelsSection section={section} />;
    case "video":
      return <VideoSection section={section} />;
    case "cta":
      return <CtaSection section={section} />;
    case "prose":
      return <ProseSection section={section} />;
    case "quote-form":
      return renderQuoteForm?.(section.type, data) ?? null;
    case "service-map":
      return data.map ? (
        <ServiceMapSection heading={section.heading} intro={section.intro} map={data.map} mapsKey={data.mapsKey} />
      ) : null;
    case "location-reviews":
      return data.locationReviews ? (
        <LocationReviewsSection heading={section.heading} intro={section.intro} cards={data.locationReviews} />
      ) : null;
    case "reviews":
      return <ReviewListSection heading={section.heading} intro={section.intro} reviews={data.reviews ?? []} />;
  }
}
