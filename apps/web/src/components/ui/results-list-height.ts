/**
 * How tall a results list grows before it scrolls (spec section 9: "results list scrolls at a maximum
 * height"). On a phone a fixed 720 px box fills the screen, and a finger on it scrolls only the list; at
 * most two thirds of the screen leaves page around it to scroll past the list.
 */
export const RESULTS_LIST_MAX_HEIGHT = 'min(720px, 66dvh)';
