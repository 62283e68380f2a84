// An app built with Vite that uses lit itself and the installed package's three widgets
// (test/e2e/packages.spec.ts). Their connection comes from the page's query: `?base-url=...&key=...`.
import { LitElement, html } from 'lit';
import 'price-board';
import 'price-board/ticker';
import 'price-board/converter';

const params = new URLSearchParams(location.search);

class AppPrices extends LitElement {
  render() {
    const base = params.get('base-url');
    const key = params.get('key');
    return html`<h1>قیمت‌ها</h1>
      <price-ticker symbols="gold_18,coin_emami" base-url=${base} api-key=${key}></price-ticker>
      <price-board symbols="usd,eur,ons" base-url=${base} api-key=${key}></price-board>
      <price-converter symbols="usd" amount="2" base-url=${base} api-key=${key}></price-converter>`;
  }
}
customElements.define('app-prices', AppPrices);
