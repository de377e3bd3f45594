import { Link } from "react-router";
import type { ProductCard } from "../types";

/** A titled grid of product cards: 4 per row on large screens, 2 on medium, 1 on small. */
export function ProductCardGrid({
  id,
  heading,
  subtitle,
  cards,
}: {
  id: string;
  heading: string;
  subtitle?: string;
  cards: ProductCard[];
}) {
  return (
    <section className="section" aria-labelledby={`${id}-title`}>
      <div className="shell-container">
        <header className="section-header" data-reveal="">
          <h2 id={`${id}-title`} className="section-title">
            {heading}
          </h2>
          {subtitle ? <p className="section-subtitle">{subtitle}</p> : null}
        </header>
        <ul className="card-grid" data-testid={`${id}-cards`}>
          {cards.map((card) => (
            <li key={card.title} className="product-card" data-reveal="">
              <img src={card.image} alt="" width={640} height={400} loading="lazy" decoding="async" />
              <div className="product-card-body">
                <p className="product-card-subtitle">{card.subtitle}</p>
                <h3 className="product-card-title">{card.title}</h3>
                <p>{card.description}</p>
                <ul className="feature-list">
                  {card.features.map((f) => (
                    <li key={f}>{f}</li>
                  ))}
                </ul>
                <Link to={card.link} className="btn btn-primary product-card-link" prefetch="intent">
                  {card.buttonLabel}
                  <span className="visually-hidden"> ({card.title})</span>
                </Link>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
