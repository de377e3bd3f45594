import type { ContentPageData, Section } from "../page-types";
import { AccordionSection } from "./AccordionSection";
import { CtaSection } from "./CtaSection";
import { FeatureGrid, StepsSection } from "./FeatureGrid";
import { GallerySection } from "./Gallery";
import { IntroSection } from "./IntroSection";
import { ChecklistSection, SpecsSection, SwatchesSection, TimelineSection } from "./ListSections";
import { ModelsSection } from "./ModelsSection";
import { ProductCardGrid } from "./ProductCardGrid";
import { QuoteFormSlot } from "./QuoteFormSlot";
import { LocationReviewsSection, ReviewListSection } from "./ReviewSections";
import { ServiceMapSection } from "./ServiceMapSection";
import { VideoSection } from "./VideoSection";

type Found = Extract<ContentPageData, { found: true }>;

/** Renders a page's sections, one component per kind. */
export function PageSections({ data }: { data: Found }) {
  return (
    <>
      {data.page.sections.map((section, i) => (
        <SectionView key={`${section.kind}-${i}`} section={section} data={data} />
      ))}
    </>
  );
}

function SectionView({ section, data }: { section: Section; data: Found }) {
  switch (section.kind) {
    case "intro":
      return <IntroSection section={section} />;
    case "features":
      return <FeatureGrid section={section} />;
    case "steps":
      return <StepsSection section={section} />;
    case "cards":
      return <ProductCardGrid id={section.id} heading={section.heading} subtitle={section.subtitle} cards={section.cards} />;
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
    case "quote-form":
      return <QuoteFormSlot type={section.type} bootstrap={data.leadForm} />;
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
