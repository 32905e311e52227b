/**
 * "New object" on the objects list, for a caller with `objects:write` (an editor, an admin, a
 * key that may write): the subcategory by name from the catalogue, the external id, the name
 * and the owner (`POST /v2/categories/{categoryId}/subcategories/{subcategoryId}/objects`);
 * the new object's page opens once it is created.
 */
import { useState } from 'preact/hooks';
import { dataOf } from '../api-client';
import type { Catalogue } from '../components/catalogue';
import { useClient } from '../components/client-context';
import { ErrorNotice } from '../components/error-notice';
import { navigate } from '../router';
import { useAction } from '../use-action';

export function ObjectCreate({ catalogue }: { catalogue: Catalogue }) {
  const client = useClient();
  const [open, setOpen] = useState(false);
  const [place, setPlace] = useState('');
  const [externalId, setExternalId] = useState('');
  const [name, setName] = useState('');
  const [owner, setOwner] = useState('');
  const create = useAction(async () => {
    const [categoryId = '', subcategoryId = ''] = place.split('/');
    const created = await dataOf(
      client.api.POST('/v2/categories/{categoryId}/subcategories/{subcategoryId}/objects', {
        params: { path: { categoryId, subcategoryId } },
        body: { externalId, name, owner: owner || undefined },
      }),
    );
    navigate(['objects', created.id], {});
  });
  // The form is rendered only when opened, so that Tab does not pass through hidden fields.
  return (
    <div class="no-print">
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        New object
      </button>
      {open && (
        <form class="stack narrow" onSubmit={create.onSubmit} aria-label="New object">
          <label>
            Subcategory
            <select
              name="place"
              required
              value={place}
              onChange={(event) => setPlace(event.currentTarget.value)}
            >
              <option value="">Choose a subcategory</option>
              {catalogue.categories.map((category) => (
                <optgroup key={category.id} label={category.name}>
                  {category.subcategories.map((subcategory) => (
                    <option key={subcategory.id} value={`${category.id}/${subcategory.id}`}>
                      {category.name} › {subcategory.name}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          </label>
          <label>
            External id
            <input
              name="externalId"
              required
              value={externalId}
              onInput={(e) => setExternalId(e.currentTarget.value)}
            />
          </label>
          <label>
            Name
            <input name="name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </label>
          <label>
            Owner (optional)
            <input name="owner" value={owner} onInput={(e) => setOwner(e.currentTarget.value)} />
          </label>
          <button type="submit" disabled={create.busy}>
            {create.busy ? 'Creating…' : 'Create object'}
          </button>
          <ErrorNotice error={create.error} />
        </form>
      )}
    </div>
  );
}
