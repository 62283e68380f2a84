// Names the contract fixes (DESIGN.md §2, §10), for tests that check a page or a doc against it.

/** `<price-board>`'s attributes in the table of DESIGN.md §2, in its order. */
export const BOARD_ATTRIBUTES = [
  'symbols',
  'api-key',
  'base-url',
  'stream',
  'stream-url',
  'poll-interval',
  'unit',
  'theme',
  'chart',
  'chart-symbol',
  'days',
] as const;

/** The board's layout attributes of DESIGN.md §10. */
export const LAYOUT_ATTRIBUTES = ['columns', 'density', 'link'] as const;
