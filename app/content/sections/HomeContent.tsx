import { Banner } from "~/shell/Banner";
import {
  commercialCards,
  commercialSection,
  homeBanner,
  homeBlocks,
  homeStyles,
  residentialCards,
  residentialSection,
} from "../home";
import { AboutGarageDoors } from "./AboutGarageDoors";
import { ContentBlocks } from "./ContentBlocks";
import { ProductCardGrid } from "./ProductCardGrid";
import { StyleGrid } from "./StyleGrid";

/** The home page body; also rendered (with status 404) for unknown paths. */
export function HomeContent() {
  return (
    <>
      <Banner variant="full" image={homeBanner.image} title={homeBanner.title} subtitle={homeBanner.subtitle} />
      <ContentBlocks blocks={homeBlocks} label="Why choose us" />
      <ProductCardGrid
        id="residential"
        heading={residentialSection.heading}
        subtitle={residentialSection.subtitle}
        cards={residentialCards}
      />
      <ProductCardGrid
        id="commercial"
        heading={commercialSection.heading}
        subtitle={commercialSection.subtitle}
        cards={commercialCards}
      />
      <AboutGarageDoors />
      <StyleGrid
        id="style"
        heading="Garage Door Styles"
        intro="Three families of styles, each in dozens of colours and window options."
        styles={homeStyles}
      />
    </>
  );
}
