/**
 * The blocks' editor side, plain JavaScript on WordPress's globals (no build step): a control per
 * attribute in the sidebar (from the attribute table the server hands over) and the element itself
 * as the live preview, with what the server gives a published widget: the site's address and key,
 * and its defaults for theme and unit. The saved content is the block comment alone: the server
 * renders it.
 */
(function (wp, config) {
  const el = wp.element.createElement;
  const { useEffect, useState } = wp.element;
  const { InspectorControls, useBlockProps } = wp.blockEditor;
  const { PanelBody, SelectControl, TextControl, ToggleControl } = wp.components;
  const DEFAULT_LABEL = '(پیش‌فرض)';
  /**
   * How long a typed field must rest before the preview takes it: each new value is a new request
   * for prices, and a half-typed symbol list (`u`, `us`, …) is a failed one.
   */
  const TYPING_PAUSE_MS = 600;
  /** The sidebar's labels; the attribute's own name (the shortcode's) is the control's help. */
  const LABELS = {
    symbols: 'نمادها',
    stream: 'به‌روزرسانی زنده',
    'poll-interval': 'فاصلهٔ به‌روزرسانی (ثانیه)',
    unit: 'واحد',
    theme: 'پوسته',
    chart: 'نمودار',
    'chart-symbol': 'نماد نمودار',
    days: 'بازهٔ نمودار (روز)',
    columns: 'ستون‌ها',
    density: 'فشردگی',
    link: 'پیوند هر ردیف',
    speed: 'سرعت',
    symbol: 'نماد',
    amount: 'مقدار',
    reverse: 'تبدیل وارونه (از تومان)',
  };
  const UNCONFIGURED =
    'تابلوی قیمت هنوز منبع قیمت ندارد: نشانی رله یا سرویس را در تنظیمات ← تابلوی قیمت بنویسید (یا از مدیر سایت بخواهید). تا آن وقت این ابزارک در نوشته دیده نمی‌شود.';

  /** Whether the author types the attribute's value (rather than picks it). */
  const typed = (spec) => spec.kind !== 'flag' && spec.kind !== 'choice';

  /** The sidebar control of one attribute: a Persian label, the attribute's name and default as help. */
  function control(spec, attributes, setAttributes) {
    const name = spec.attribute;
    const set = (value) => setAttributes({ [name]: value });
    const label = LABELS[name] || name;
    const fallback = config.defaults[name] !== undefined ? config.defaults[name] : spec.default;
    const help = spec.kind === 'flag' || fallback === undefined ? name : `${name} · ${DEFAULT_LABEL}: ${fallback}`;
    if (spec.kind === 'flag') {
      return el(ToggleControl, { key: name, label, help, checked: Boolean(attributes[name]), onChange: set });
    }
    if (spec.kind === 'choice') {
      const options = [{ label: DEFAULT_LABEL, value: '' }].concat(
        spec.values.map((value) => ({ label: String(value), value: String(value) })),
      );
      return el(SelectControl, { key: name, label, help, value: attributes[name] || '', options, onChange: set });
    }
    return el(TextControl, { key: name, label, help, value: attributes[name] || '', onChange: set });
  }

  /** The element's attributes for the preview: the site's address, then what the block sets or the site's default. */
  function elementAttributes(specs, attributes) {
    const shown = Object.assign({}, config.site);
    for (const spec of specs) {
      const value = attributes[spec.attribute] || config.defaults[spec.attribute];
      if (spec.kind === 'flag') {
        if (value) shown[spec.attribute] = '';
      } else if (value) shown[spec.attribute] = value;
    }
    return shown;
  }

  /** `value` once it has stayed the same for `ms` (a string, so that equal values are the same). */
  function useSettled(value, ms) {
    const [settled, setSettled] = useState(value);
    useEffect(() => {
      const timer = setTimeout(() => setSettled(value), ms);
      return () => clearTimeout(timer);
    }, [value, ms]);
    return settled;
  }

  /** The block's attributes as the preview shows them: a typed one once the author pauses, a picked one at once. */
  function usePreviewAttributes(specs, attributes) {
    const typedNow = {};
    for (const spec of specs) if (typed(spec)) typedNow[spec.attribute] = attributes[spec.attribute] || '';
    const settled = JSON.parse(useSettled(JSON.stringify(typedNow), TYPING_PAUSE_MS));
    return Object.assign({}, attributes, settled);
  }

  for (const tag of Object.keys(config.widgets)) {
    const specs = config.widgets[tag];
    wp.blocks.registerBlockType(`price-board/${tag}`, {
      edit(props) {
        const blockProps = useBlockProps();
        const previewed = usePreviewAttributes(specs, props.attributes);
        const preview = config.site['base-url']
          ? el(tag, elementAttributes(specs, previewed))
          : el('p', { className: 'price-board-unconfigured', dir: 'rtl' }, UNCONFIGURED);
        return el(
          wp.element.Fragment,
          null,
          el(
            InspectorControls,
            null,
            el(
              PanelBody,
              { title: 'تنظیمات' },
              specs.map((spec) => control(spec, props.attributes, props.setAttributes)),
            ),
          ),
          el('div', blockProps, preview),
        );
      },
      save() {
        return null;
      },
    });
  }
})(window.wp, window.priceBoardBlocks);
