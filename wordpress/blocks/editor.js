/**
 * The blocks' editor side, plain JavaScript on WordPress's globals (no build step): a control per
 * attribute in the sidebar (from the attribute table the server hands over) and the element itself
 * as the live preview. The saved content is the block comment alone: the server renders it.
 */
(function (wp, config) {
  const el = wp.element.createElement;
  const { InspectorControls, useBlockProps } = wp.blockEditor;
  const { PanelBody, SelectControl, TextControl, ToggleControl } = wp.components;
  const DEFAULT_LABEL = '(پیش‌فرض)';

  /** The sidebar control of one attribute. */
  function control(spec, attributes, setAttributes) {
    const name = spec.attribute;
    const set = (value) => setAttributes({ [name]: value });
    if (spec.kind === 'flag') {
      return el(ToggleControl, { key: name, label: name, checked: Boolean(attributes[name]), onChange: set });
    }
    if (spec.kind === 'choice') {
      const options = [{ label: DEFAULT_LABEL, value: '' }].concat(
        spec.values.map((value) => ({ label: String(value), value: String(value) })),
      );
      return el(SelectControl, { key: name, label: name, value: attributes[name] || '', options, onChange: set });
    }
    const help = spec.default !== undefined ? `${DEFAULT_LABEL}: ${spec.default}` : undefined;
    return el(TextControl, { key: name, label: name, help, value: attributes[name] || '', onChange: set });
  }

  /** The element's attributes for the preview: the site's address, then what the block sets. */
  function elementAttributes(specs, attributes) {
    const shown = Object.assign({}, config.site);
    for (const spec of specs) {
      const value = attributes[spec.attribute];
      if (spec.kind === 'flag') {
        if (value) shown[spec.attribute] = '';
      } else if (value) shown[spec.attribute] = value;
    }
    return shown;
  }

  for (const tag of Object.keys(config.widgets)) {
    const specs = config.widgets[tag];
    wp.blocks.registerBlockType(`price-board/${tag}`, {
      edit(props) {
        const blockProps = useBlockProps();
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
          el('div', blockProps, el(tag, elementAttributes(specs, props.attributes))),
        );
      },
      save() {
        return null;
      },
    });
  }
})(window.wp, window.priceBoardBlocks);
