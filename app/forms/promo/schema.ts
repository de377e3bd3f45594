import { z } from "~/lib/zod";
import { PROMO_PRODUCTS } from "../options";
import { choice, emailField, phoneField, requiredText } from "../schema-helpers";

/** SPEC §3 Promo request; §5: all five fields and the captcha required. */
export const promoLabels = {
  first_name: "First Name",
  last_name: "Last Name",
  email: "Email",
  phone: "Phone",
  product: "Product",
} as const;

export const promoSchema = z.object({
  first_name: requiredText(promoLabels.first_name, 100),
  last_name: requiredText(promoLabels.last_name, 100),
  email: emailField(promoLabels.email),
  phone: phoneField(promoLabels.phone),
  product: choice("Please choose a product.", PROMO_PRODUCTS),
});
