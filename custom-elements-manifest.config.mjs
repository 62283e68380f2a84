export default {
  globs: ['src/board/**/*.ts', 'src/widget/**/*.ts', 'src/ticker/**/*.ts', 'src/converter/**/*.ts', 'src/price-*.ts'],
  outdir: 'dist',
  litelement: true,
  dependencies: false,
  // package.json already points at dist/custom-elements.json; do not let the analyzer rewrite it.
  packagejson: false,
};
