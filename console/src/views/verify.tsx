/**
 * The deep link `#/objects/<id>/verify`: the object's Verify on a page of its own (the same
 * check as on the object's page, `ObjectVerification`), for links and bookmarks made before
 * Verify moved onto the object's page.
 */
import { routeHref } from '../router';
import { ObjectVerification } from './object-verification';

export function VerifyView({ objectId }: { objectId: string }) {
  return (
    <main id="main">
      <p>
        <a href={routeHref(['objects', objectId])}>← Object</a>
      </p>
      <ObjectVerification key={objectId} objectId={objectId} titleLevel={1} />
    </main>
  );
}
