// Integration tests call handlers in their own process: the background jobs those start
// (subcategory removal, imports, exports) run here too, as under `npm start`.
require('../../local/in-process-jobs.ts').runBackgroundJobsInProcess();
