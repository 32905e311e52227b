/** The console's words for ledger changes and for the diff of two object states (no browser). */
import { changeLines, type Names, stateDifferences } from '../../console/src/views/change-text';

const CATEGORY_ID = 'ff14b2c0-0000-4000-8000-000000000001';
const catalogue: Names = {
  categoryName: (id) => (id === CATEGORY_ID ? 'Vehicles' : undefined),
  subcategoryName: () => undefined,
};

describe('changeLines', () => {
  it('names ids, reads a file upload and a deletion by the file name, and metadata key by key', () => {
    // Act
    const lines = changeLines(
      {
        categoryId: { from: null, to: CATEGORY_ID },
        description: { from: null, to: '' },
        file: { from: null, to: { id: 'f1', originalFileName: 'service-log.txt', size: 12 } },
        metadata: { from: { colour: 'red', axles: 3 }, to: { colour: 'blue', axles: 3, plate: 'AB-123' } },
      },
      catalogue,
    );
    const deleted = changeLines({ file: { from: { originalFileName: 'old.pdf' }, to: null } });
    // Assess
    expect(lines).toEqual([
      'category: — → Vehicles (ff14b2c0…)',
      'file uploaded: service-log.txt',
      'metadata colour: red → blue',
      'metadata plate: — → AB-123',
    ]);
    expect(deleted).toEqual(['file deleted: old.pdf']);
  });

  it('leaves an id as it is when the catalogue does not know it, or when there is none', () => {
    // Act
    const lines = changeLines({ subcategoryId: { from: 'a', to: 'b' } }, catalogue);
    // Assess
    expect(lines).toEqual(['subcategory: a → b']);
  });
});

describe('stateDifferences', () => {
  it('lists the tracked fields that differ, metadata key by key, and nothing else', () => {
    // Act
    const rows = stateDifferences(
      {
        owner: 'Alice',
        status: 'active',
        name: 'Truck',
        categoryId: CATEGORY_ID,
        metadata: { colour: 'red' },
      },
      {
        owner: 'Bob',
        status: 'stolen',
        name: 'Truck',
        categoryId: CATEGORY_ID,
        metadata: { colour: 'red', vin: 'V1' },
      },
      catalogue,
    );
    // Assess
    expect(rows).toEqual([
      { field: 'owner', before: 'Alice', after: 'Bob' },
      { field: 'status', before: 'active', after: 'stolen' },
      { field: 'metadata vin', before: '—', after: 'V1' },
    ]);
  });
});
