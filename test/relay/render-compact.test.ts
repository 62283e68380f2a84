// The relay's fragments are compacted as the widgets' build compacts their templates
// (relay/render/compact-markup.ts): no lit markers, minified style blocks, indentation runs cut,
// while what a visitor reads and what a sizer measures stays as rendered.
import { describe, expect, it } from 'vitest';
import { compactMarkup } from '../../relay/render/compact-markup';
import { prepareRenderer, renderWidget } from '../../relay/render/renderer';
import type { Quote } from '../../relay/from-src';

const quote: Quote = {
  symbol: 'gold_18',
  title: 'طلای <b>۱۸</b>\n   عیار',
  category: 'gold',
  unit: 'gram',
  price: '100040000',
  price_toman: '10004000',
  change_pct: '-0.60',
  high: '100780000',
  low: '99680000',
  updated_at: '2026-12-07T10:34:00+03:30',
} as Quote;

describe('a rendered board’s markup', () => {
  it('holds no lit marker, a minified style block and no indentation, and the same text and sizers', async () => {
    await prepareRenderer();
    const html = renderWidget('price-board', [['symbols', 'gold_18']], {
      quotes: [quote],
      status: 'live',
      delaySeconds: 0,
    });
    expect(html).not.toContain('<!--');
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    expect(style).not.toMatch(/\/\*|\n/);
    // the block-width sizer's 100 em spaces are a quoted string: kept whole
    expect(style).toContain(`content:'${'\u2003\u200b'.repeat(100)}'`);
    expect(html.replace(/<style>[\s\S]*?<\/style>/, '')).not.toMatch(/>\s*\n/);
    // a service title is escaped text, its line break one space; a sizer's lines stay lines
    expect(html).toContain('طلای &lt;b&gt;۱۸&lt;/b&gt; عیار');
    expect(html).toMatch(/data-w="قیمت \(تومان\)\n/);
    expect(html).toContain('۱۰٬۰۰۴٬۰۰۰');
  });

  it('cuts lit’s markers and indentation, not text or attribute values', () => {
    const markup =
      '<x-a title="a\n  b"><template shadowrootmode="open"><style>\n  .a {\n    color: red; /* why */\n  }\n</style>' +
      '<!--lit-part abc=--><!--lit-node 0--><div>\n    <span>one <!--lit-part-->two<!--/lit-part--></span>\n  </div><!--/lit-part--></template></x-a>';
    expect(compactMarkup(markup)).toBe(
      '<x-a title="a\n  b"><template shadowrootmode="open"><style> .a{color:red}</style><div> <span>one two</span> </div></template></x-a>',
    );
  });
});
