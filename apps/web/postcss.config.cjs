module.exports = {
  plugins: {
    'postcss-preset-mantine': {
      mixins: {
        // Out of sight but still read by screen readers (`@mixin visually-hidden;`), for every rule that
        // hides a label or link only from the eye.
        'visually-hidden': {
          position: 'absolute',
          width: '1px',
          height: '1px',
          overflow: 'hidden',
          'clip-path': 'inset(50%)',
          'white-space': 'nowrap',
        },
      },
    },
  },
};
