/**
 * The deep link `#/objects/<id>/verify`: the object's Verify on a page of its own (the same
 * check as on the object's page, `ObjectVerification`), for links and bookmarks made before
 * Verify moved onto the object's page.
 */
import { useClient } from '../components/client-context';
import { routeHref } from '../router';
import { canReadAuditTrail } from '../session';
import { ObjectVerification } from './object-verification';

export function VerifyView({ objectId }: { objectId: string }) {
  const { session } = useClient();
  return (
    <main id="main">
      <p>
        <a href={routeHref(['objects', objectId])}>← Object</a>
      </p>
      {canReadAuditTrail(session) ? (
        <ObjectVerification key={objectId} objectId={objectId} titleLevel={1} />
      ) : (
        <>
          <h1>Verify</h1>
          <p>
            Your role may not read the audit trail (proofs, bundles, exports): ask for the auditor's role.
          </p>
        </>
      )}
    </main>
  );
}
