/** The spec's pagination wrapper (section 2.1): `hasNext` and `hasPrevious` at every edge. */
import fc from 'fast-check';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, pageQueryFields, toPage } from '../../lambdas/shared/pagination';
import { object } from '../../lambdas/shared/schema';

describe('toPage', () => {
  it('wraps the items with limit, offset and total as given', () => {
    // Act
    const page = toPage(['a', 'b'], { limit: 2, offset: 0 }, 5);
    // Assess
    expect(page).toEqual({
      data: ['a', 'b'],
      pagination: { limit: 2, offset: 0, total: 5, hasNext: true, hasPrevious: false },
    });
  });

  it('has neither next nor previous for an empty result', () => {
    // Act
    const page = toPage([], { limit: 20, offset: 0 }, 0);
    // Assess
    expect(page.pagination).toEqual({ limit: 20, offset: 0, total: 0, hasNext: false, hasPrevious: false });
  });

  it('has no next page when the page ends exactly at the total', () => {
    // Act
    const page = toPage(['e', 'f'], { limit: 2, offset: 4 }, 6);
    // Assess
    expect(page.pagination.hasNext).toBe(false);
    expect(page.pagination.hasPrevious).toBe(true);
  });

  it('has a next page when one item is left after the page', () => {
    // Act
    const page = toPage(['d', 'e'], { limit: 2, offset: 3 }, 6);
    // Assess
    expect(page.pagination.hasNext).toBe(true);
    expect(page.pagination.hasPrevious).toBe(true);
  });

  it('has a last, short page with previous but no next', () => {
    // Act
    const page = toPage(['g'], { limit: 3, offset: 6 }, 7);
    // Assess
    expect(page.pagination).toEqual({ limit: 3, offset: 6, total: 7, hasNext: false, hasPrevious: true });
  });

  it('reports previous items but no next ones for an offset beyond the total', () => {
    // Act
    const page = toPage([], { limit: 10, offset: 50 }, 7);
    // Assess
    expect(page).toEqual({
      data: [],
      pagination: { limit: 10, offset: 50, total: 7, hasNext: false, hasPrevious: true },
    });
  });

  it('reports no previous items for an offset beyond a total of zero', () => {
    // Act
    const page = toPage([], { limit: 10, offset: 5 }, 0);
    // Assess
    expect(page.pagination.hasPrevious).toBe(false);
    expect(page.pagination.hasNext).toBe(false);
  });

  it('agrees with a slice of a list for every window (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 0, max: 40 }),
        (total, limit, offset) => {
          const all = Array.from({ length: total }, (_, index) => index);
          const data = all.slice(offset, offset + limit);
          const { pagination } = toPage(data, { limit, offset }, total);
          expect(pagination.hasNext).toBe(offset + limit < total);
          expect(pagination.hasPrevious).toBe(offset > 0 && total > 0);
        },
      ),
    );
  });
});

describe('pageQueryFields', () => {
  it(`defaults to limit ${PAGE_SIZE_DEFAULT} and offset 0, with at most ${PAGE_SIZE_MAX} per page`, () => {
    // Prepare
    const schema = object(pageQueryFields());
    // Act
    const defaults = schema.parse({});
    const largest = schema.parse({ limit: '100', offset: '0' });
    // Assess
    expect(defaults).toEqual({ limit: 20, offset: 0 });
    expect(largest).toEqual({ limit: 100, offset: 0 });
    expect(() => schema.parse({ limit: '101' })).toThrow('The request is not valid');
  });

  it('takes another default page size when asked', () => {
    // Act
    const parsed = object(pageQueryFields(50)).parse({});
    // Assess
    expect(parsed).toEqual({ limit: 50, offset: 0 });
  });
});
