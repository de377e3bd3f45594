/** Stored reviews shown when no Places key is configured (DECISIONS 19). Written for this project. */
export const seedReviews = [
  {
    authorName: "Karen M.",
    rating: 5,
    locationSlug: "flint",
    text: "Our old garage door gave out on a Sunday morning. The technician was in our driveway by noon, explained every option without any pressure, and had a new spring on within the hour. Friendly, tidy and fairly priced.",
  },
  {
    authorName: "Dale R.",
    rating: 5,
    locationSlug: "saginaw",
    text: "We replaced all eleven windows in our 1950s ranch. The crew protected the floors, cleaned up every evening and the house is noticeably quieter and warmer. The showroom staff were patient with our many questions.",
  },
  {
    authorName: "Priya S.",
    rating: 5,
    locationSlug: "lansing",
    text: "Ordered a carriage-style garage door and a quiet belt-drive opener. Installation took one day, the door looks fantastic and the opener is whisper quiet. Neighbours keep asking who did it.",
  },
  {
    authorName: "Tom & Lisa B.",
    rating: 4,
    locationSlug: "pontiac",
    text: "Seamless gutters and new downspouts installed before the fall rains. Good communication and a clean job site. One downspout needed a small adjustment, which they came back for the same week.",
  },
  {
    authorName: "Marcus J.",
    rating: 5,
    locationSlug: "flint",
    text: "Our warehouse dock door was stuck half open. Their commercial team came out after hours, got it closed and secured, and returned the next morning with the parts. That 24-hour service saved our shipment.",
  },
  {
    authorName: "Jennifer W.",
    rating: 5,
    locationSlug: "saginaw",
    text: "The new entry door completely changed the look of our home. They helped us pick the glass and colour, and the fit is perfect: no more draft in the hallway.",
  },
  {
    authorName: "Greg H.",
    rating: 5,
    locationSlug: "lansing",
    text: "Professional from the first phone call to the final walk-through. The quote was clear, the installers arrived on time and the patio door glides like new.",
  },
  {
    authorName: "Angela T.",
    rating: 4,
    locationSlug: "pontiac",
    text: "Vinyl siding on our two-storey house, finished in three days. The crew was courteous and careful around our garden. Very happy with the colour we chose.",
  },
];
