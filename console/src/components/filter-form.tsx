/**
 * The filter bar of a list: text inputs and selects whose values live in the route's query,
 * so a filtered page can be bookmarked (it never holds the key).
 */
import { useState } from 'preact/hooks';

/** A choice of a select: the value the API takes, and the words shown for it. */
type FilterOption = string | { value: string; label: string };

export type FilterField =
  | { name: string; label: string; kind: 'text' }
  | {
      name: string;
      label: string;
      kind: 'select';
      /** The choices, or the choices given the other fields' values (a subcategory of the chosen category). */
      options: readonly FilterOption[] | ((draft: Record<string, string>) => readonly FilterOption[]);
      /** Fields emptied when this one changes (the subcategory, when the category does). */
      resets?: readonly string[];
    };

const optionValue = (option: FilterOption) => (typeof option === 'string' ? option : option.value);
const optionLabel = (option: FilterOption) => (typeof option === 'string' ? option : option.label);

/** The route's list the filters belong to (a `ListRoute`). */
interface FilteredList {
  /** What tells this page from another: the form starts again from the route when it changes. */
  key: string;
  values: Record<string, string>;
  applyFilters: (values: Record<string, string>) => void;
}

export function FilterForm({ list, fields }: { list: FilteredList; fields: FilterField[] }) {
  return <FilterFields key={list.key} fields={fields} values={list.values} onApply={list.applyFilters} />;
}

function FilterFields(props: {
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
            <SelectField field={field} draft={draft} onChange={setDraft} />
          )}
        </div>
      ))}
      <button type="submit">Apply filters</button>
    </form>
  );
}

function SelectField({
  field,
  draft,
  onChange,
}: {
  field: Extract<FilterField, { kind: 'select' }>;
  draft: Record<string, string>;
  onChange: (draft: Record<string, string>) => void;
}) {
  const options = typeof field.options === 'function' ? field.options(draft) : field.options;
  const first = options[0];
  return (
    <select
      id={`filter-${field.name}`}
      name={field.name}
      value={draft[field.name] ?? (first === undefined ? '' : optionValue(first))}
      onChange={(event) => {
        const cleared = Object.fromEntries((field.resets ?? []).map((name) => [name, '']));
        onChange({ ...draft, ...cleared, [field.name]: event.currentTarget.value });
      }}
    >
      {options.map((option) => (
        <option key={optionValue(option)} value={optionValue(option)}>
          {optionLabel(option)}
        </option>
      ))}
    </select>
  );
}

/** The spec's `name`, `status` and `sort` filters of categories and objects (4.1, 4.5). */
export const NAME_FILTER: FilterField = { name: 'name', label: 'Name contains', kind: 'text' };
export const STATUS_FILTER: FilterField = {
  name: 'status',
  label: 'Status',
  kind: 'select',
  options: ['active', 'inactive', 'all'],
};
export const SORT_FILTER: FilterField = {
  name: 'sort',
  label: 'Sort',
  kind: 'select',
  options: ['createdAt:desc', 'createdAt:asc', 'name:asc', 'name:desc'],
};
