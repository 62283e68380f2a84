/**
 * lightweight-charts' licence asks for a visible TradingView attribution. Its built-in logo
 * (`layout.attributionLogo`) injects a `<style>` element, which a strict Content-Security-Policy
 * without `'unsafe-inline'` styles blocks, and adds the embedding page's address to the link; so
 * the chart turns the logo off and shows this plain text link in the same corner instead.
 */
export function createAttribution(parent: HTMLElement): HTMLAnchorElement {
  const link = document.createElement('a');
  link.href = 'https://www.tradingview.com/';
  link.target = '_blank';
  link.rel = 'noopener';
  link.lang = 'en';
  link.textContent = 'TradingView';
  link.setAttribute('part', 'chart-attribution');
  // Styles through the CSSOM, which a CSP does not block (unlike a style attribute in markup).
  Object.assign(link.style, {
    position: 'absolute',
    left: '8px',
    bottom: '32px',
    zIndex: '3',
    fontSize: '11px',
    lineHeight: '1',
    textDecoration: 'none',
  });
  parent.append(link);
  return link;
}
