/**
 * The filter bar of a list: text inputs and selects whose values live in the route's query,
 * so a filtered page can be bookmarked (it never holds the key).
 */
import { useState } from 'preact/hooks';

export type FilterField =
  | { name: string; label: string; kind: 'text' }
  | { name: string; label: string; kind: 'select'; options: readonly string[] };

export function FilterForm(props: {
  fields: FilterField[];
  values: Record<string, string>;
  onApply: (values: Record<string, string>) => void;
}) {
  const [draft, setDraft] = useState(props.values);
  const submit = (event: Event) => {
    event.preventDefault();
    props.onApply(draft);
  };
  return (
    <form class="filters" onSubmit={submit} aria-label="Filters">
      {props.fields.map((field) => (
        <div class="field" key={field.name}>
          <label for={`filter-${field.name}`}>{field.label}</label>
          {field.kind === 'text' ? (
            <input
              id={`filter-${field.name}`}
              name={field.name}
              value={draft[field.name] ?? ''}
              onInput={(event) => setDraft({ ...draft, [field.name]: event.currentTarget.value })}
            />
          ) : (
            <select
              id={`filter-${field.name}`}
              name={field.name}
              value={draft[field.name] ?? field.options[0]}
              onChange={(event) => setDraft({ ...draft, [field.name]: event.currentTarget.value })}
            >
              {field.options.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
          )}
        </div>
      ))}
      <button type="submit">Apply filters</button>
    </form>
  );
}

/** The spec's sort orders of categories and objects (4.1, 4.5). */
export const CREATED_NAME_SORTS = ['createdAt:desc', 'createdAt:asc', 'name:asc', 'name:desc'] as const;
/** The spec's `status` filter values of categories and objects. */
export const ACTIVE_INACTIVE_ALL = ['active', 'inactive', 'all'] as const;
