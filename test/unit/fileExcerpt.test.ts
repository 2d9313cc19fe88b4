/** @jest-environment node */
import {excerpt} from '../../src/buildTime/fileExcerpt';

const file = ['const a = 1;', 'const b = 2;', 'export const config = {', '  name: a,', '  plans: [', '    {price: b},', '  ],', '};'].join('\n');

describe('a quote of a file in the docs', () => {
  it('shows the stretches asked for as the file holds them, with `// ...` where it leaves lines out', () => {
    expect(excerpt(file, [['const a'], ['  plans:', '  ],']], 'config.ts')).toBe(['const a = 1;', '  // ...', '  plans: [', '    {price: b},', '  ],', '  // ...'].join('\n'));
  });

  it('joins stretches that follow each other without a gap, and ends without `// ...` at the end of the file', () => {
    expect(excerpt(file, [['const a'], ['const b', '};']], 'config.ts')).toBe(file);
  });

  it('fails, naming the file, when the file no longer holds a stretch', () => {
    expect(() => excerpt(file, [['const z']], 'config.ts')).toThrow('config.ts holds no line with "const z"');
    expect(() => excerpt(file, [['plans:', 'nowhere']], 'config.ts')).toThrow('config.ts holds no line with "nowhere" after "plans:"');
  });
});
