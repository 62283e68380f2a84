/**
 * The board's chart section: span buttons, `part="chart"` (the chart fills `.chart-canvas`), a
 * text alternative. In the chart area's chunk (`chart-area.ts`), loaded only when a chart is shown.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { DAY_OPTIONS, type HistoryDays } from '../shared/attribute-table';
import type { ChartView } from './chart-view';

const SPAN_LABEL: Readonly<Record<HistoryDays, string>> = { 1: '۱ روز', 7: '۷ روز', 30: '۳۰ روز', 365: '۱ سال' };

/** What the chart section shows: the chart's view, its title, the span pressed. */
export interface ChartSection extends Omit<ChartView, 'shownDays'> {
  title: string;
  /** The span shown (pressed button); the asked one until history arrives. */
  days: HistoryDays;
  onSpan(event: Event): void;
}

function chartMessage(c: ChartSection): TemplateResult | typeof nothing {
  if (c.status === 'error' && c.error) {
    return html`<p class="chart-message" role="alert" data-code=${c.error.code}>${c.error.shownFa}</p>`;
  }
  if (c.status === 'loading') return html`<p class="chart-message">در حال بارگذاری نمودار…</p>`;
  return nothing;
}

/** The chart area: span buttons, `part="chart"` (the chart fills `.chart-canvas`), a text alternative. */
export function renderChart(c: ChartSection): TemplateResult {
  return html`<section class="chart-section" aria-label=${`نمودار ${c.title}`}>
    <div class="chart-bar">
      <span class="chart-title">${c.title}</span>
      <div class="spans" role="group" aria-label="بازهٔ نمودار" @click=${c.onSpan}>
        ${DAY_OPTIONS.map(
          (d) =>
            html`<button type="button" data-days=${d} aria-pressed=${d === c.days ? 'true' : 'false'}>${SPAN_LABEL[d]}</button>`,
        )}
      </div>
    </div>
    <figure part="chart" class="chart" data-status=${c.status}>
      <div class="chart-canvas"></div>
      ${chartMessage(c)}
      <figcaption class="sr-only">${c.description || `نمودار قیمت ${c.title}`}</figcaption>
    </figure>
    ${c.note ? html`<p class="chart-note">${c.note}</p>` : nothing}
  </section>`;
}
