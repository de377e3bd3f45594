import { isRouteErrorResponse, useLocation } from "react-router";

/**
 * SPEC §8: the shop's and the product page's error text, in place of the
 * grid or the product, worded as the original's GET helper reported it
 * ('Error: {status} {statusText}').
 */
export function ShopError({ error, title }: { error: unknown; title: string }) {
  const { pathname, search } = useLocation();
  const text = isRouteErrorResponse(error)
    ? `Error: ${error.status} ${error.statusText || "Error"}`
    : "Error: 500 Internal Server Error";
  return (
    <section className="section">
      <div className="shell-container shop-message">
        <h1>{title}</h1>
        <p className="shop-error" role="alert">
          {text}
        </p>
        <p>
          <a href={pathname + search}>Try again</a>
        </p>
      </div>
    </section>
  );
}
