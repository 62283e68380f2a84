// The lit literal minifier on small modules and on src/'s real ones (TypeScript stripped as Vite
// strips it): every module that imports css or html from lit must have its literals found.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseAst, transformWithOxc } from 'vite';
import { describe, expect, it } from 'vitest';
import { minifyCssText, minifyHtmlText } from '../../../build/literal-text';
import { minifyLitLiterals, minifyLitLiteralsIn } from '../../../build/minify-lit-literals';
import { buildWith } from './build-with';

const src = fileURLToPath(new URL('../../../src/', import.meta.url));
/** The modules of src/ that import css or html from lit. */
const litModules = (readdirSync(src, { recursive: true }) as string[]).filter(
  (f) => f.endsWith('.ts') && /import \{[^}]*\b(css|html)\b[^}]*\} from 'lit'/.test(readFileSync(`${src}${f}`, 'utf8')),
);

describe('minifyCssText and minifyHtmlText', () => {
  it('drops comments and the spaces CSS ignores, keeping quoted strings', () => {
    expect(minifyCssText(':host {\n  /* why */\n  font: 1em "a  b";\n  content: \'x ; y\';\n}\n')).toBe(
      ':host{font:1em "a  b";content:\'x ; y\'}',
    );
  });

  it('drops the spaces around the delimiters / and < (a range query, a shorthand), not before a (', () => {
    expect(
      minifyCssText('@container b (width < 720px) {\n  .a { grid-row: 1 / span 2; container: b / inline-size }\n}'),
    ).toBe('@container b (width<720px){.a{grid-row:1/span 2;container:b/inline-size}}');
  });

  it('cuts each indentation run of HTML to one space', () => {
    expect(minifyHtmlText('<div>\n    <span>a  b</span>\n  </div>')).toBe('<div> <span>a  b</span> </div>');
  });
});

describe('minifyLitLiteralsIn', () => {
  it("minifies the static text of a module's css`` and html`` literals, not their expressions", () => {
    const code =
      "import { css, html } from 'lit';\nconst s = css`\n  a {\n    color: red;\n  }\n`;\nconst t = html`\n  <b>${'x  y'}</b>\n`;";
    expect(minifyLitLiteralsIn(code, 'src/a.ts')?.code).toBe(
      "import { css, html } from 'lit';\nconst s = css`a{color:red}`;\nconst t = html` <b>${'x  y'}</b> `;",
    );
  });

  it("trims a css`` literal's own edges only, not the text beside its expressions", () => {
    const code = "import { css } from 'lit';\nconst s = css`\n  a {\n    ${x}\n  }\n  ${y} b { color: red; }\n`;";
    expect(minifyLitLiteralsIn(code, 'src/a.ts')?.code).toBe(
      "import { css } from 'lit';\nconst s = css`a{${x}}${y} b{color:red}`;",
    );
  });

  it('leaves a module with no literal', () => {
    expect(minifyLitLiteralsIn('// embed.html` in a comment\nexport const a = 1;', 'src/a.ts')).toBeNull();
  });

  it('fails when a module imports css from lit but tags no literal with it', () => {
    const code = "import { css } from 'lit';\nexport const s = css(['a { color: red; }']);";
    expect(() => minifyLitLiteralsIn(code, 'src/a.ts')).toThrow(/src\/a\.ts imports css from lit but has no css``/);
  });

  it('finds the literals of every module of src/ that imports css or html from lit', async () => {
    expect(litModules.length).toBeGreaterThan(10);
    let before = 0;
    let after = 0;
    for (const file of litModules) {
      const { code } = await transformWithOxc(readFileSync(`${src}${file}`, 'utf8'), file, { lang: 'ts' });
      const out = minifyLitLiteralsIn(code, file);
      expect(out, file).not.toBeNull();
      expect(() => parseAst(out!.code), file).not.toThrow();
      before += code.length;
      after += out!.code.length;
    }
    expect(before - after).toBeGreaterThan(1_000);
  });
});

describe('minifyLitLiterals in a Vite build', () => {
  it('fails a build that bundles lit but minified no literal of src/', async () => {
    await expect(buildWith('lit-entry.js', [minifyLitLiterals()])).rejects.toThrow(
      /this build bundles lit but no css`` or html`` literal of src\/ was minified/,
    );
  });
});
