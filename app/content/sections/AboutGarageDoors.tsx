import { company } from "~/lib/company";
import { aboutGarageDoors as about } from "../home";
import { PhoneIcon } from "~/shell/icons";

/** The about-new-garage-doors section (SPEC §2 Home). */
export function AboutGarageDoors() {
  return (
    <section className="section section--tint" aria-labelledby="about-doors-title">
      <div className="shell-container split">
        <div data-reveal="">
          <h2 id="about-doors-title" className="section-title section-title--left">
            {about.heading}
          </h2>
          {about.text.map((p) => (
            <p key={p}>{p}</p>
          ))}
          <div className="button-row">
            <a href={about.designToolUrl} target="_blank" rel="noopener noreferrer" className="btn btn-primary">
              {about.designToolLabel}
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
            <a href="#style" className="btn btn-outline">
              {about.styleLinkLabel}
            </a>
            <a href={company.phone.href} className="btn btn-ghost">
              <PhoneIcon size={18} /> {company.phone.display}
            </a>
          </div>
        </div>
        <img
          src={about.image}
          alt="A homeowner admiring a newly installed garage door"
          width={800}
          height={600}
          loading="lazy"
          decoding="async"
          className="split-image"
        />
      </div>
    </section>
  );
}
