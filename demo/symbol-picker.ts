/**
 * The configurator's symbol chooser: the service's symbols grouped by category with a search box,
 * and the chosen ones as removable chips, in the order they were chosen. Text goes in through
 * `textContent` only.
 */
import type { SymbolInfo } from '../src/shared/types';

/** Persian names of the service's categories, in display order. */
export const CATEGORY_LABELS: ReadonlyArray<[string, string]> = [
  ['currency', 'ارز'],
  ['gold', 'طلا'],
  ['coin', 'سکه'],
  ['silver', 'نقره'],
  ['global', 'جهانی'],
];
const OTHER_LABEL = 'سایر';

const faNumber = new Intl.NumberFormat('fa-IR');

/**
 * Folds the Arabic forms of ی/ک/ه, Persian and Arabic digits, diacritics, tatweel, ZWNJ and case,
 * so "دلار", "USD", "۱۸" and "18" all match.
 */
export function foldForSearch(text: string): string {
  return text
    .toLowerCase()
    .replace(/[يى]/g, 'ی')
    .replace(/ك/g, 'ک')
    .replace(/[ةۀ]/g, 'ه')
    .replace(/[\u064B-\u065F\u0670\u0640]/g, '')
    .replace(/_|\u200c|\u200d|\u200f|\u200e/g, ' ')
    .replace(/[۰-۹]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/\s+/g, ' ')
    .trim();
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export interface SymbolPickerElements {
  chips: HTMLOListElement;
  search: HTMLInputElement;
  groups: HTMLElement;
}

export class SymbolPicker {
  private infos = new Map<string, SymbolInfo>();
  private selected: string[];
  private readonly checkboxes = new Map<string, HTMLInputElement>();

  constructor(
    private readonly els: SymbolPickerElements,
    initial: string[],
    private readonly onChange: (symbols: string[]) => void,
  ) {
    this.selected = [...initial];
    els.search.addEventListener('input', () => this.filter());
    // Enter in the search box adds the single remaining match instead of submitting the form.
    els.search.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      const visible = [...this.checkboxes.values()].filter((box) => !box.closest('label')?.hidden);
      if (visible.length === 1 && visible[0] && !visible[0].checked) visible[0].click();
    });
    this.renderChips();
  }

  get symbols(): string[] {
    return [...this.selected];
  }

  /** Shows the service's symbol list (replacing any earlier one). */
  setSymbols(list: SymbolInfo[]): void {
    this.infos = new Map(list.map((info) => [info.symbol, info]));
    this.checkboxes.clear();
    const byCategory = new Map<string, SymbolInfo[]>();
    for (const info of list) {
      const category = info.category ?? '';
      const group = byCategory.get(category) ?? [];
      group.push(info);
      byCategory.set(category, group);
    }
    const known = new Set(CATEGORY_LABELS.map(([id]) => id));
    const order: Array<[string, string]> = [
      ...CATEGORY_LABELS.filter(([id]) => byCategory.has(id)),
      ...[...byCategory.keys()].filter((id) => !known.has(id)).map((id): [string, string] => [id, OTHER_LABEL]),
    ];
    const groups = order.map(([id, label]) => this.renderGroup(id, label, byCategory.get(id) ?? []));
    this.els.groups.replaceChildren(...groups);
    this.renderChips();
    this.filter();
  }

  private renderGroup(id: string, label: string, infos: SymbolInfo[]): HTMLElement {
    const group = el('fieldset', 'symbol-group');
    group.dataset.category = id || 'other';
    const legend = el('legend');
    legend.append(
      el('span', 'symbol-group__name', label),
      el('span', 'symbol-group__count', faNumber.format(infos.length)),
    );
    const options = el('div', 'symbol-group__options');
    for (const info of infos) {
      const option = el('label', 'symbol-option');
      option.dataset.search = foldForSearch(`${info.title ?? ''} ${info.symbol} ${label}`);
      const box = el('input');
      box.type = 'checkbox';
      box.value = info.symbol;
      box.checked = this.selected.includes(info.symbol);
      box.addEventListener('change', () => this.toggle(info.symbol, box.checked));
      this.checkboxes.set(info.symbol, box);
      option.append(
        box,
        el('span', 'symbol-option__title', info.title || info.symbol),
        el('code', 'symbol-option__id', info.symbol),
      );
      options.append(option);
    }
    group.append(legend, options);
    return group;
  }

  private toggle(symbol: string, on: boolean): void {
    const has = this.selected.includes(symbol);
    if (on && !has) this.selected.push(symbol);
    else if (!on && has) this.selected = this.selected.filter((s) => s !== symbol);
    else return;
    const box = this.checkboxes.get(symbol);
    if (box) box.checked = on;
    this.renderChips();
    this.onChange(this.symbols);
  }

  private renderChips(): void {
    const chips = this.selected.map((symbol) => {
      const info = this.infos.get(symbol);
      const title = info?.title || symbol;
      const chip = el('li', 'chip');
      chip.dataset.symbol = symbol;
      const remove = el('button', 'chip__remove', '×');
      remove.type = 'button';
      remove.setAttribute('aria-label', `حذف ${title}`);
      remove.addEventListener('click', () => {
        const next = chip.nextElementSibling ?? chip.previousElementSibling;
        this.toggle(symbol, false);
        // Keep keyboard focus in the chip list after removing.
        const target =
          next &&
          this.els.chips.querySelector<HTMLButtonElement>(
            `[data-symbol="${CSS.escape((next as HTMLElement).dataset.symbol ?? '')}"] button`,
          );
        (target ?? this.els.search).focus();
      });
      chip.append(el('span', 'chip__title', title), remove);
      return chip;
    });
    if (chips.length === 0) chips.push(el('li', 'chips__empty', 'هنوز نمادی انتخاب نشده است.'));
    this.els.chips.replaceChildren(...chips);
  }

  private filter(): void {
    const query = foldForSearch(this.els.search.value);
    // Every word of the query, in any order («طلا ۱۸» finds «طلای ۱۸ عیار»).
    const words = query.split(' ').filter(Boolean);
    let shown = 0;
    for (const group of this.els.groups.querySelectorAll<HTMLElement>('.symbol-group')) {
      let inGroup = 0;
      for (const option of group.querySelectorAll<HTMLElement>('.symbol-option')) {
        const text = option.dataset.search ?? '';
        const match = words.every((word) => text.includes(word));
        option.hidden = !match;
        if (match) inGroup++;
      }
      group.hidden = inGroup === 0;
      shown += inGroup;
    }
    this.els.groups.classList.toggle('is-searching', query !== '');
    this.els.groups.dataset.empty = String(shown === 0 && this.infos.size > 0);
  }
}
