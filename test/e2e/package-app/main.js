// An app built with Vite that uses lit itself and the installed package (test/e2e/package.spec.ts).
// The board's connection comes from the page's query: `?base-url=...&key=...`.
import { LitElement, html } from 'lit';
import 'price-board';

const params = new URLSearchParams(location.search);

class AppPrices extends LitElement {
  render() {
    return html`<h1>قیمت‌ها</h1>
      <price-board symbols="usd,eur,ons" base-url=${params.get('base-url')} api-key=${params.get('key')}></price-board>`;
  }
}
customElements.define('app-prices', AppPrices);
