/** Where a view sits (Categories › Vehicles › Trucks): each step a link but the last, the page itself. */
export interface Crumb {
  label: string;
  /** Absent for the page itself. */
  href?: string;
}

export function Breadcrumb({ trail }: { trail: Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb" class="breadcrumb">
      <ol>
        {trail.map((crumb) => (
          <li key={`${crumb.label}:${crumb.href ?? ''}`}>
            {crumb.href ? (
              <a href={crumb.href}>{crumb.label}</a>
            ) : (
              <span aria-current="page">{crumb.label}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
