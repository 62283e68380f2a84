import { css } from 'lit';

/**
 * The flash of a changed price (`flash.ts`), adopted with the board's extras (`board-controllers.ts`)
 * beside the board's own styles: only live updates change a price shown, and they come after the
 * first rows.
 */
export const flashStyles = css`
  /* a tint behind the digits (not the unit, whose muted text keeps AA) and a little around them
     (the shadow: no layout), only while the cell flashes; nothing animates (see flash.ts) */
  @media (prefers-reduced-motion: no-preference) {
    .flash .value {
      --_flash: color-mix(in srgb, var(--_accent) 22%, transparent);
      border-radius: 4px;
      background: var(--_flash);
      box-shadow: 0 0 0 .2em var(--_flash);
    }
  }
`;
