import { Link } from "react-router";
import { ServiceAreaMap } from "~/maps/ServiceAreaMap";
import type { ServiceAreaMapData } from "~/maps/types";
import { SectionFrame } from "./primitives";

/** The service-area map with the list of cities and a link to the contact page. */
export function ServiceMapSection({
  heading,
  intro,
  map,
  mapsKey,
}: {
  heading: string;
  intro: string;
  map: ServiceAreaMapData;
  mapsKey?: string;
}) {
  return (
    <SectionFrame id="service-map" heading={heading} intro={intro}>
      <div className="service-area-layout">
        <ServiceAreaMap map={map} mapsKey={mapsKey} />
        <div className="service-area-text" data-reveal="">
          <h3>Cities We Serve</h3>
          <ul className="service-city-list">
            {map.cities.map((c) => (
              <li key={c.name}>
                <span className="service-city-dot" aria-hidden="true" />
                {c.name} <span className="service-city-radius">and {map.radiusMiles} miles around</span>
              </li>
            ))}
          </ul>
          <p>
            Each circle on the map marks {map.radiusMiles} miles from the city at its centre. Outside the circles? We
            often travel farther for commercial work and larger projects. <Link to="/contact">Contact us</Link> with
            your address and we will tell you how we can help.
          </p>
          <Link to="/contact" className="btn btn-primary">
            Contact Us
          </Link>
        </div>
      </div>
    </SectionFrame>
  );
}
