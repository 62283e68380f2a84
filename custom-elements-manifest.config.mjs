export default {
  globs: ['src/board/**/*.ts', 'src/price-board.ts'],
  outdir: 'dist',
  litelement: true,
  dependencies: false,
};
