/** An object's files (GET .../objects/{id}/files) with download; the company id is the key's (`GET /v2/me`). */
import { useState } from 'preact/hooks';
import { dataOf, type Schemas } from '../api-client';
import { useClient } from '../components/client-context';
import { ErrorNotice } from '../components/error-notice';
import { PagedList } from '../components/paged-list';
import { useCursorStack } from '../components/pagination';
import { useRequest } from '../use-request';

type FileRecord = Schemas['FileRecord'];

export function ObjectFiles({ objectId }: { objectId: string }) {
  const client = useClient();
  const companyId = client.session.me.id;
  const pages = useCursorStack();
  const [downloadError, setDownloadError] = useState<unknown>();
  const files = useRequest(
    () =>
      dataOf(
        client.api.GET('/v2/companies/{companyId}/objects/{objectId}/files', {
          params: { path: { companyId, objectId }, query: { limit: 20, cursor: pages.cursor } },
        }),
      ),
    [objectId, pages.cursor, companyId],
  );
  const download = async (file: FileRecord) => {
    setDownloadError(undefined);
    try {
      // The key travels in a header, so the page fetches the bytes and hands them to the browser.
      const bytes = await dataOf(
        client.api.GET('/v2/companies/{companyId}/files/{fileId}', {
          params: { path: { companyId, fileId: file.id }, query: { download: true } },
          parseAs: 'blob',
        }),
      );
      const link = document.createElement('a');
      link.href = URL.createObjectURL(bytes);
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
      <ErrorNotice error={downloadError} />
      <PagedList
        label="Files"
        request={files}
        empty="No files."
        pages={pages}
        rowKey={(file) => file.id}
        columns={[
          { header: 'Name', cell: (file) => file.originalFileName },
          { header: 'Type', cell: (file) => file.mimeType },
          { header: 'Size (bytes)', cell: (file) => file.size },
          { header: 'Uploaded', cell: (file) => `${file.uploadedAt} by ${file.uploadedBy}` },
          { header: 'Checksum', cell: (file) => file.checksum, class: 'mono' },
          {
            header: 'Download',
            cell: (file) => (
              <button
                type="button"
                onClick={() => download(file)}
                aria-label={`Download ${file.originalFileName}`}
              >
                Download
              </button>
            ),
          },
        ]}
      />
    </section>
  );
}
