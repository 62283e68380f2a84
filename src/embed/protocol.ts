/**
 * The one message between the embed page and the page around it. Constants only, so that the
 * loader (`embed.js`) bundles it without pulling in anything else.
 */

/** `type` of the message `embed.html` posts to its parent whenever its height changes. */
export const RESIZE_MESSAGE = 'price-board:resize';

/** `{ type: "price-board:resize", height }`, height in CSS pixels. */
export interface ResizeMessage {
  type: typeof RESIZE_MESSAGE;
  height: number;
}
