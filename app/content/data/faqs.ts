import type { AccordionItem } from "../page-types";

/** Frequently asked questions, per page. */
export type Faq = { id: string; question: string; answer: string[] };

export const hollowMetalFaqs: Faq[] = [
  {
    id: "what-is-hollow-metal",
    question: "What is a hollow metal door?",
    answer: [
      "A hollow metal door is built from two steel face sheets over an internal core: honeycomb, polystyrene, polyurethane or steel stiffeners, depending on the job. It hangs in a welded or knock-down steel frame. The result is a door that shrugs off dents, weather and heavy daily traffic.",
    ],
  },
  {
    id: "fire-rated",
    question: "Can you supply fire-rated doors and frames?",
    answer: [
      "Yes. We supply labelled assemblies rated for 20, 45, 60 and 90 minutes and 3 hours, with the matching frames, closers and latching hardware. We install them to the listing so they pass your fire marshal's inspection.",
    ],
  },
  {
    id: "gauge",
    question: "Which steel gauge do I need?",
    answer: [
      "For offices and interior rooms, 18-gauge faces are usually enough. Exterior doors, schools and industrial buildings generally call for 16-gauge, and high-abuse openings such as back-of-house corridors or correctional facilities for 14-gauge. We will recommend the right gauge after seeing the opening.",
    ],
  },
  {
    id: "existing-frame",
    question: "Can a new door go into my existing frame?",
    answer: [
      "Often, yes. If the frame is square, solid and its hinge preparations match, we can hang a new door in it and save you the cost of frame work. Rusted or bent frames are best replaced; we will tell you honestly which you have.",
    ],
  },
  {
    id: "lead-time",
    question: "How long does it take to get a door?",
    answer: [
      "Standard sizes are often in stock at our warehouse. Custom sizes, fire labels and special hardware typically take three to five weeks from approval. In an emergency we will secure the opening the same day while the permanent door is made.",
    ],
  },
  {
    id: "hardware",
    question: "Do you install panic bars, closers and access control?",
    answer: [
      "Yes. We fit exit devices, closers, kick plates, vision kits and electrified hardware, and we work with your security contractor on card readers and electric strikes so everything arrives prepared.",
    ],
  },
];

export const repairFaqs: Faq[] = [
  {
    id: "broken-spring",
    question: "My garage door spring broke. Is it safe to open the door?",
    answer: [
      "Please don't try. A broken spring leaves the full weight of the door on the opener and on you. Leave the door closed, unplug the opener and call us: spring replacement is one of our most common same-day repairs.",
    ],
  },
  {
    id: "repair-or-replace",
    question: "Should I repair my door or replace it?",
    answer: [
      "Most doors can be repaired. If several sections are damaged, the door is uninsulated and you are heating the garage, or parts are no longer made, replacement can cost less over time. Our technician will give you both prices and let you decide.",
    ],
  },
  {
    id: "brands",
    question: "Do you repair doors and openers you didn't install?",
    answer: [
      "Yes. Our technicians service every major brand of residential door and opener, and our trucks carry the common springs, rollers, cables and sensors.",
    ],
  },
];

export function faqItems(faqs: Faq[]): AccordionItem[] {
  return faqs.map((f) => ({ id: f.id, title: f.question, paragraphs: f.answer }));
}
