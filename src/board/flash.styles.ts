import { css } from 'lit';

/**
 * The flash of a changed price (`flash.ts`), adopted with the board's extras (`board-extras.ts`)
 * beside the board's own styles: only live updates change a price shown, and they come after the
 * first rows.
 */
export const flashStyles = css`
  /* a tint over the digits (not the unit, whose muted text keeps AA), only while the cell flashes:
     no box and no animation otherwise (see flash.ts) */
  [part~=price] .value {
    position: relative;
  }
  @media (prefers-reduced-motion: no-preference) {
    .flash .value::before {
      content: '';
      position: absolute;
      inset-block: -0.15em;
      inset-inline: -0.3em -0.2em;
      border-radius: 4px;
      background: color-mix(in srgb, var(--_accent) 22%, transparent);
      pointer-events: none;
    }
  }
`;
