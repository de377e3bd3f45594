import type { StyleCard } from "../types";

/** A grid of style cards (garage door styles, window types). `id` makes it an in-page anchor. */
export function StyleGrid({
  id,
  heading,
  intro,
  styles,
  imageSize = { width: 640, height: 400 },
}: {
  id: string;
  heading: string;
  intro?: string;
  styles: StyleCard[];
  imageSize?: { width: number; height: number };
}) {
  return (
    <section id={id} className="section" aria-labelledby={`${id}-title`}>
      <div className="shell-container">
        <header className="section-header" data-reveal="">
          <h2 id={`${id}-title`} className="section-title">
            {heading}
          </h2>
          {intro ? <p className="section-subtitle">{intro}</p> : null}
        </header>
        <ul className="style-grid">
          {styles.map((s) => (
            <li key={s.name} className="style-card" data-reveal="">
              <img
                src={s.image}
                alt=""
                width={imageSize.width}
                height={imageSize.height}
                loading="lazy"
                decoding="async"
              />
              <h3>{s.name}</h3>
              <p>{s.text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
