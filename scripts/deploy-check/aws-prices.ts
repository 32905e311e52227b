/**
 * AWS list prices in US East (N. Virginia), on-demand, without free tiers, savings plans or
 * volume tiers (each price is the first tier's). Each price names the AWS pricing page it
 * comes from and the day it was read. `checked` says how: this machine cannot reach AWS, so
 * the prices were read through a search tool's stored copies of pages; where no stored copy of
 * the AWS page itself gave the figure, the price is as known on that day and says so.
 */

/** One price: so many US dollars per `unit`. */
export interface Price {
  usd: number;
  unit: string;
  /** The AWS pricing page the price is published on. */
  source: string;
  /** The day the price was read (ISO date). */
  readOn: string;
  /** How the price was read: from the AWS page's stored copy, from a secondary source that quotes it, or known. */
  checked: 'aws-page' | 'secondary-source' | 'known, not checked';
}

const READ_ON = '2026-11-27';

const price = (usd: number, unit: string, source: string, checked: Price['checked']): Price => ({
  usd,
  unit,
  source,
  readOn: READ_ON,
  checked,
});

const LAMBDA_PAGE = 'https://aws.amazon.com/lambda/pricing/';
const API_GATEWAY_PAGE = 'https://aws.amazon.com/api-gateway/pricing/';
const DYNAMODB_PAGE = 'https://aws.amazon.com/dynamodb/pricing/on-demand/';
const S3_PAGE = 'https://aws.amazon.com/s3/pricing/';
const KMS_PAGE = 'https://aws.amazon.com/kms/pricing/';
const CLOUDWATCH_PAGE = 'https://aws.amazon.com/cloudwatch/pricing/';
const SECRETS_MANAGER_PAGE = 'https://aws.amazon.com/secrets-manager/pricing/';
const EVENTBRIDGE_PAGE = 'https://aws.amazon.com/eventbridge/pricing/';
const SQS_PAGE = 'https://aws.amazon.com/sqs/pricing/';
const WAF_PAGE = 'https://aws.amazon.com/waf/pricing/';

/** A month as AWS bills hourly resources: 730 hours. */
export const HOURS_PER_MONTH = 730;

export const LAMBDA_REQUEST = price(0.2 / 1e6, 'request', LAMBDA_PAGE, 'secondary-source');
/** Duration on Arm (Graviton), first 7.5 billion GB-seconds a month. */
export const LAMBDA_ARM64_GB_SECOND = price(0.0000133334, 'GB-second', LAMBDA_PAGE, 'secondary-source');
/** Duration on x86, first 6 billion GB-seconds a month. */
export const LAMBDA_X86_GB_SECOND = price(0.0000166667, 'GB-second', LAMBDA_PAGE, 'secondary-source');

/** REST API requests, first 333 million a month. */
export const API_GATEWAY_REST_REQUEST = price(3.5 / 1e6, 'request', API_GATEWAY_PAGE, 'known, not checked');

/** On-demand write request unit (Standard table class), since the price cut of 2024-11-01. */
export const DYNAMODB_WRITE_REQUEST_UNIT = price(
  0.625 / 1e6,
  'write request unit',
  DYNAMODB_PAGE,
  'secondary-source',
);
/** On-demand read request unit (Standard table class). */
export const DYNAMODB_READ_REQUEST_UNIT = price(
  0.125 / 1e6,
  'read request unit',
  DYNAMODB_PAGE,
  'secondary-source',
);
/** Table storage (Standard table class), beyond the free 25 GB. */
export const DYNAMODB_STORAGE_GB_MONTH = price(0.25, 'GB-month', DYNAMODB_PAGE, 'aws-page');
/** Continuous backups (point-in-time recovery), per GB of table data. */
export const DYNAMODB_PITR_GB_MONTH = price(0.2, 'GB-month', DYNAMODB_PAGE, 'known, not checked');

/** S3 Standard storage, first 50 TB. */
export const S3_STANDARD_GB_MONTH = price(0.023, 'GB-month', S3_PAGE, 'known, not checked');
/** PUT, COPY, POST and LIST requests (S3 Standard). */
export const S3_WRITE_REQUEST = price(0.005 / 1000, 'request', S3_PAGE, 'known, not checked');
/** GET, SELECT and every other request (S3 Standard); DELETE is free. */
export const S3_READ_REQUEST = price(0.0004 / 1000, 'request', S3_PAGE, 'known, not checked');

/** A customer managed key, symmetric or asymmetric. */
export const KMS_KEY_MONTH = price(1, 'key-month', KMS_PAGE, 'known, not checked');
/** Symmetric-key requests (Encrypt, Decrypt, GenerateDataKey, ...). */
export const KMS_SYMMETRIC_REQUEST = price(0.03 / 10_000, 'request', KMS_PAGE, 'known, not checked');
/** Asymmetric requests other than RSA 2048 (the ledger's Ed25519 Sign, GetPublicKey). */
export const KMS_ASYMMETRIC_REQUEST = price(0.15 / 10_000, 'request', KMS_PAGE, 'known, not checked');

/** A standard-resolution (60 s or longer period) metric alarm, per metric it reads. */
export const CLOUDWATCH_STANDARD_ALARM_METRIC_MONTH = price(
  0.1,
  'alarm metric-month',
  CLOUDWATCH_PAGE,
  'secondary-source',
);
/** A high-resolution (10 s or 30 s period) metric alarm, per metric it reads. */
export const CLOUDWATCH_HIGH_RESOLUTION_ALARM_METRIC_MONTH = price(
  0.3,
  'alarm metric-month',
  CLOUDWATCH_PAGE,
  'known, not checked',
);
export const CLOUDWATCH_COMPOSITE_ALARM_MONTH = price(
  0.5,
  'alarm-month',
  CLOUDWATCH_PAGE,
  'known, not checked',
);
export const CLOUDWATCH_DASHBOARD_MONTH = price(3, 'dashboard-month', CLOUDWATCH_PAGE, 'secondary-source');
/** Dashboards an account keeps without charge (up to 50 metrics each). */
export const CLOUDWATCH_FREE_DASHBOARDS = 3;
/** Log storage (archived), per GB compressed. */
export const CLOUDWATCH_LOGS_STORAGE_GB_MONTH = price(0.03, 'GB-month', CLOUDWATCH_PAGE, 'secondary-source');

export const SECRETS_MANAGER_SECRET_MONTH = price(
  0.4,
  'secret-month',
  SECRETS_MANAGER_PAGE,
  'known, not checked',
);

/** Custom events put on an event bus (per 64 KB chunk). Scheduled rules' events come from AWS and are free. */
export const EVENTBRIDGE_CUSTOM_EVENT = price(1 / 1e6, 'event', EVENTBRIDGE_PAGE, 'secondary-source');

/** Standard queue requests (per 64 KB chunk), beyond the free million a month. */
export const SQS_STANDARD_REQUEST = price(0.4 / 1e6, 'request', SQS_PAGE, 'known, not checked');
/** FIFO queue requests (per 64 KB chunk). */
export const SQS_FIFO_REQUEST = price(0.5 / 1e6, 'request', SQS_PAGE, 'known, not checked');

/** A WAFv2 web ACL. */
export const WAF_WEB_ACL_MONTH = price(5, 'web ACL-month', WAF_PAGE, 'known, not checked');
/** A rule of a web ACL (a managed rule group counts as one rule). */
export const WAF_RULE_MONTH = price(1, 'rule-month', WAF_PAGE, 'known, not checked');
/** Requests a web ACL inspects (up to 1,500 WCUs and the default body size). */
export const WAF_REQUEST = price(0.6 / 1e6, 'request', WAF_PAGE, 'known, not checked');

/** Lambda's duration price of a function architecture (`Architectures` in the template; x86_64 when absent). */
export const lambdaGbSecondPrice = (architecture: string): Price =>
  architecture === 'arm64' ? LAMBDA_ARM64_GB_SECOND : LAMBDA_X86_GB_SECOND;

/** Every price above, by its constant's name, for the report's list of sources. */
export const ALL_PRICES: Readonly<Record<string, Price>> = {
  LAMBDA_REQUEST,
  LAMBDA_ARM64_GB_SECOND,
  LAMBDA_X86_GB_SECOND,
  API_GATEWAY_REST_REQUEST,
  DYNAMODB_WRITE_REQUEST_UNIT,
  DYNAMODB_READ_REQUEST_UNIT,
  DYNAMODB_STORAGE_GB_MONTH,
  DYNAMODB_PITR_GB_MONTH,
  S3_STANDARD_GB_MONTH,
  S3_WRITE_REQUEST,
  S3_READ_REQUEST,
  KMS_KEY_MONTH,
  KMS_SYMMETRIC_REQUEST,
  KMS_ASYMMETRIC_REQUEST,
  CLOUDWATCH_STANDARD_ALARM_METRIC_MONTH,
  CLOUDWATCH_HIGH_RESOLUTION_ALARM_METRIC_MONTH,
  CLOUDWATCH_COMPOSITE_ALARM_MONTH,
  CLOUDWATCH_DASHBOARD_MONTH,
  CLOUDWATCH_LOGS_STORAGE_GB_MONTH,
  SECRETS_MANAGER_SECRET_MONTH,
  EVENTBRIDGE_CUSTOM_EVENT,
  SQS_STANDARD_REQUEST,
  SQS_FIFO_REQUEST,
  WAF_WEB_ACL_MONTH,
  WAF_RULE_MONTH,
  WAF_REQUEST,
};
