/** SPEC §3 "Product card (static)". */
export type ProductCard = {
  title: string;
  subtitle: string;
  image: string;
  description: string;
  features: [string, string, string, string];
  link: string;
  buttonLabel: string;
};

export type ContentBlock = { title: string; text: string; icon?: "family" | "crew" | "clock" | "shield" };

export type StyleCard = { name: string; image: string; text: string };
