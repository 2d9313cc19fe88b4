import {adminHref, readAdminQuery} from '../../src/components/screens/Admin/adminUrl';

describe("the console's address", () => {
  it('reads the panel, the search and the page, and writes them back the same', () => {
    const query = readAdminQuery('?view=purchases&q=ada&page=2');
    expect(query).toEqual({view: 'purchases', q: 'ada', page: 2, purchase: undefined});
    expect(adminHref(query)).toBe('/admin?view=purchases&q=ada&page=2');
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])(
    'opens Sales for ?view=%s, a name every object inherits but no panel has',
    (name) => {
      expect(readAdminQuery(`?view=${name}`).view).toBe('sales');
      expect(readAdminQuery(`?view=${name}&q=ada`).view).toBe('purchases');
    },
  );
});
