import { Link } from "react-router";

/**
 * Residential-or-commercial chooser (DECISIONS 4): each card is a link to
 * ?type=…, so it works without JavaScript; the server renders the form.
 */
export type ChooserCard = { type: "residential" | "commercial"; title: string; text: string; cta: string };

export function Chooser({ question, cards }: { question: string; cards: ChooserCard[] }) {
  return (
    <div className="chooser">
      <h2 id="chooser-question">{question}</h2>
      <ul className="chooser-cards" aria-labelledby="chooser-question">
        {cards.map((card) => (
          <li key={card.type}>
            <Link className="chooser-card" to={`?type=${card.type}`} preventScrollReset>
              <span className="chooser-card-title">{card.title}</span>
              <span className="chooser-card-text">{card.text}</span>
              <span className="chooser-card-cta" aria-hidden="true">
                {card.cta} →
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** "Change" link back to the chooser, beside the form's heading. */
export function FormCardHeader({
  title,
  changeTo,
  changeLabel,
}: {
  title: string;
  changeTo?: string;
  changeLabel?: string;
}) {
  return (
    <div className="form-card-header">
      <h2>{title}</h2>
      {changeTo ? (
        <Link to={changeTo} className="form-change-link" aria-label={changeLabel}>
          Change
        </Link>
      ) : null}
    </div>
  );
}
