/** API Gateway gives up on an integration after 29 s: no API request runs longer. */
export const API_TIMEOUT_SECONDS = 29;
