/**
 * The values of a synthesized template's references on this machine: what CloudFormation would
 * put in place of `Ref`, `Fn::GetAtt`, `Fn::Join`, `Fn::Sub`, `Fn::Select` and `Fn::Split`, with
 * each resource given a local physical name and ARN (account `000000000000`, partition `aws`).
 * Local mode reads every function's environment and every policy through it, so a function sees
 * names and ARNs shaped as in AWS.
 */

/** The account id of every local ARN. */
export const LOCAL_ACCOUNT_ID = '000000000000';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface TemplateResource {
  Type: string;
  Properties?: Record<string, unknown>;
}

export interface LocalTemplateOptions {
  resources: Record<string, TemplateResource>;
  stackName: string;
  region: string;
  /** Physical names chosen by local mode for some resources (by logical id), e.g. the table's. */
  physicalNames?: Record<string, string>;
  /** Values of attributes local mode decides (by logical id, then attribute name). */
  attributes?: Record<string, Record<string, string>>;
}

/** The property that names a resource when the template sets it, by resource type. */
const NAME_PROPERTY: Record<string, string> = {
  'AWS::DynamoDB::Table': 'TableName',
  'AWS::S3::Bucket': 'BucketName',
  'AWS::Lambda::Function': 'FunctionName',
  'AWS::SQS::Queue': 'QueueName',
  'AWS::Events::EventBus': 'Name',
  'AWS::IAM::Role': 'RoleName',
  'AWS::SecretsManager::Secret': 'Name',
  'AWS::Logs::LogGroup': 'LogGroupName',
  'AWS::SNS::Topic': 'TopicName',
};

/** A name as CloudFormation generates one (`<stack>-<logical id>`), within the type's limits. */
function generatedName(type: string, stackName: string, logicalId: string): string {
  const name = `${stackName}-${logicalId}`;
  if (type === 'AWS::S3::Bucket') return name.toLowerCase().slice(0, 63);
  if (type === 'AWS::SQS::Queue') return name.slice(0, 75);
  return name.slice(0, 64);
}

/** A stable UUID-shaped id for a KMS key, from its logical id. */
function keyIdOf(stackName: string, logicalId: string): string {
  const hex = Buffer.from(`${stackName}/${logicalId}`).toString('hex').padEnd(32, '0').slice(-32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Resolves the references of one template; throws on an intrinsic it does not know. */
export class LocalTemplateValues {
  constructor(private readonly options: LocalTemplateOptions) {}

  get region(): string {
    return this.options.region;
  }

  /** The resource's physical name (what `Ref` gives for most types). */
  physicalName(logicalId: string): string {
    const resource = this.resource(logicalId);
    const chosen = this.options.physicalNames?.[logicalId];
    if (chosen) return chosen;
    const property = NAME_PROPERTY[resource.Type];
    const named = property ? resource.Properties?.[property] : undefined;
    if (named !== undefined) return String(this.resolve(named as Json));
    if (resource.Type === 'AWS::KMS::Key') return keyIdOf(this.options.stackName, logicalId);
    return generatedName(resource.Type, this.options.stackName, logicalId);
  }

  /** The resource's ARN, as AWS forms it for its type. */
  arn(logicalId: string): string {
    const { region } = this.options;
    const name = this.physicalName(logicalId);
    const type = this.resource(logicalId).Type;
    const regional = (service: string, path: string) =>
      `arn:aws:${service}:${region}:${LOCAL_ACCOUNT_ID}:${path}`;
    switch (type) {
      case 'AWS::DynamoDB::Table':
        return regional('dynamodb', `table/${name}`);
      case 'AWS::S3::Bucket':
        return `arn:aws:s3:::${name}`;
      case 'AWS::Lambda::Function':
        return regional('lambda', `function:${name}`);
      case 'AWS::SQS::Queue':
        return regional('sqs', name);
      case 'AWS::Events::EventBus':
        return regional('events', `event-bus/${name}`);
      case 'AWS::IAM::Role':
        return `arn:aws:iam::${LOCAL_ACCOUNT_ID}:role/${name}`;
      case 'AWS::KMS::Key':
        return regional('kms', `key/${name}`);
      case 'AWS::SecretsManager::Secret':
        return regional('secretsmanager', `secret:${name}-local`);
      case 'AWS::Logs::LogGroup':
        return regional('logs', `log-group:${name}:*`);
      case 'AWS::SNS::Topic':
        return regional('sns', name);
      default:
        return regional(type.split('::')[1]!.toLowerCase(), name);
    }
  }

  /** What `Ref` gives for the resource. */
  ref(logicalId: string): string {
    const type = this.resource(logicalId).Type;
    if (type === 'AWS::SQS::Queue') return this.queueUrl(logicalId);
    if (type === 'AWS::SecretsManager::Secret') return this.arn(logicalId);
    return this.physicalName(logicalId);
  }

  /** A queue's URL as SQS gives it (an identifier here: requests go to the local endpoint). */
  queueUrl(logicalId: string): string {
    return `https://sqs.${this.options.region}.amazonaws.com/${LOCAL_ACCOUNT_ID}/${this.physicalName(logicalId)}`;
  }

  /** What `Fn::GetAtt` gives. */
  attribute(logicalId: string, attribute: string): string {
    const decided = this.options.attributes?.[logicalId]?.[attribute];
    if (decided !== undefined) return decided;
    switch (attribute) {
      case 'Arn':
        return this.arn(logicalId);
      case 'StreamArn':
        return `${this.arn(logicalId)}/stream/local`;
      case 'KeyId':
      case 'Name':
      case 'QueueName':
      case 'TopicName':
        return this.physicalName(logicalId);
      case 'QueueUrl':
        return this.queueUrl(logicalId);
      default:
        throw new Error(`Local mode gives no value to ${logicalId}.${attribute}`);
    }
  }

  /** The value with every reference replaced; plain JSON stays as it is. */
  resolve(value: Json): Json {
    if (Array.isArray(value)) return value.map((item) => this.resolve(item));
    if (value === null || typeof value !== 'object') return value;
    const keys = Object.keys(value);
    if (keys.length === 1) {
      const [intrinsic] = keys as [string];
      const argument = value[intrinsic] as Json;
      switch (intrinsic) {
        case 'Ref':
          return this.refValue(String(argument));
        case 'Fn::GetAtt': {
          const [logicalId, attribute] = argument as [string, string];
          return this.attribute(logicalId, attribute);
        }
        case 'Fn::Join': {
          const [separator, parts] = argument as [string, Json[]];
          return (this.resolve(parts) as Json[]).map(String).join(separator);
        }
        case 'Fn::Select': {
          const [index, list] = argument as [Json, Json];
          return (this.resolve(list) as Json[])[Number(this.resolve(index))] ?? null;
        }
        case 'Fn::Split': {
          const [separator, text] = argument as [string, Json];
          return String(this.resolve(text)).split(separator);
        }
        case 'Fn::Sub':
          return this.substitute(argument);
        default:
          if (intrinsic.startsWith('Fn::')) throw new Error(`Local mode cannot resolve ${intrinsic}`);
      }
    }
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.resolve(item)]));
  }

  private refValue(name: string): string {
    const { region, stackName } = this.options;
    switch (name) {
      case 'AWS::Region':
        return region;
      case 'AWS::AccountId':
        return LOCAL_ACCOUNT_ID;
      case 'AWS::Partition':
        return 'aws';
      case 'AWS::URLSuffix':
        return 'amazonaws.com';
      case 'AWS::StackName':
        return stackName;
      case 'AWS::StackId':
        return `arn:aws:cloudformation:${region}:${LOCAL_ACCOUNT_ID}:stack/${stackName}/${keyIdOf(stackName, 'stack')}`;
      case 'AWS::NoValue':
        throw new Error('Local mode does not resolve AWS::NoValue');
      default:
        return this.ref(name);
    }
  }

  private substitute(argument: Json): string {
    const [text, variables] = Array.isArray(argument)
      ? (argument as [string, Record<string, Json>])
      : [String(argument), {}];
    return text.replace(/\$\{([^}!]+)\}/g, (_, name: string) => {
      if (name in variables) return String(this.resolve(variables[name] as Json));
      const [logicalId, attribute] = name.split('.') as [string, string | undefined];
      return attribute ? this.attribute(logicalId, attribute) : this.refValue(logicalId);
    });
  }

  private resource(logicalId: string): TemplateResource {
    const resource = this.options.resources[logicalId];
    if (!resource) throw new Error(`The template has no resource ${logicalId}`);
    return resource;
  }
}
