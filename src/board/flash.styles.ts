import { css } from 'lit';

/**
 * The flash of a changed price, adopted with the board's extras (`board-extras.ts`) beside the
 * board's own styles: only live updates change a price shown, and they come after the first rows.
 */
export const flashStyles = css`
  /* the flash on a changed price: a tint over the digits (not the unit, whose muted text keeps
     AA) whose opacity animates on the compositor (no layout or paint per frame, and none at all
     in rows off screen); the alternating names restart it */
  [part~=price] .value {
    position: relative;
  }
  [part~=price] .value::before {
    content: '';
    position: absolute;
    inset-block: -0.15em;
    inset-inline: -0.3em -0.2em;
    border-radius: 4px;
    background: color-mix(in srgb, var(--_accent) 22%, transparent);
    opacity: 0;
    pointer-events: none;
    will-change: opacity;
  }
  @media (prefers-reduced-motion: no-preference) {
    .flash-a .value::before {
      animation: flash-a .9s ease-out;
    }
    .flash-b .value::before {
      animation: flash-b .9s ease-out;
    }
  }
  @keyframes flash-a {
    from {
      opacity: 1;
    }
    to {
      opacity: 0;
    }
  }
  @keyframes flash-b {
    from {
      opacity: 1;
    }
    to {
      opacity: 0;
    }
  }
`;
