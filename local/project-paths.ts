/** Folders of the project, found from this file's place (works from any working directory). */
import { join } from 'node:path';

export const projectRoot = join(__dirname, '..');
export const handlersDirectory = join(projectRoot, 'lambdas', 'handlers');
