/** An object's files (GET .../objects/{id}/files) with download; needs the company id. */
import { useState } from 'preact/hooks';
import type { Page } from '../api-client';
import { useClient } from '../components/client-context';
import { ErrorNotice } from '../components/error-notice';
import { Pagination, useCursorStack } from '../components/pagination';
import { useRequest } from '../use-request';
import type { FileRecord } from './object-types';

export function ObjectFiles({ objectId }: { objectId: string }) {
  const client = useClient();
  const companyId = client.session.companyId;
  const pages = useCursorStack();
  const [downloadError, setDownloadError] = useState<unknown>();
  const files = useRequest(
    async () =>
      companyId
        ? client.get<Page<FileRecord>>(
            `v2/companies/${encodeURIComponent(companyId)}/objects/${encodeURIComponent(objectId)}/files`,
            { limit: 20, cursor: pages.cursor },
          )
        : undefined,
    [objectId, pages.cursor, companyId],
  );
  const download = async (file: FileRecord) => {
    setDownloadError(undefined);
    try {
      // The key travels in a header, so the page fetches the bytes and hands them to the browser.
      const response = await client.send('GET', file.url, { query: { download: 'true' } });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(await response.blob());
      link.download = file.originalFileName;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    } catch (failure) {
      setDownloadError(failure);
    }
  };
  return (
    <section aria-labelledby="files-title">
      <h2 id="files-title">Files</h2>
      {!companyId && <p>Sign in with your company id as well to list and download this object's files.</p>}
      <ErrorNotice error={files.error ?? downloadError} />
      {files.data && files.data.data.length === 0 && <p>No files.</p>}
      {files.data && files.data.data.length > 0 && (
        <>
          <table>
            <caption class="visually-hidden">Files</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Size (bytes)</th>
                <th scope="col">Uploaded</th>
                <th scope="col">Checksum</th>
                <th scope="col">Download</th>
              </tr>
            </thead>
            <tbody>
              {files.data.data.map((file) => (
                <tr key={file.id}>
                  <td>{file.originalFileName}</td>
                  <td>{file.mimeType}</td>
                  <td>{file.size}</td>
                  <td>
                    {file.uploadedAt} by {file.uploadedBy}
                  </td>
                  <td class="mono">{file.checksum}</td>
                  <td>
                    <button
                      type="button"
                      onClick={() => download(file)}
                      aria-label={`Download ${file.originalFileName}`}
                    >
                      Download
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pagination
            label="Files"
            page={files.data.pagination}
            onNext={pages.next}
            onPrevious={pages.previous}
          />
        </>
      )}
    </section>
  );
}
