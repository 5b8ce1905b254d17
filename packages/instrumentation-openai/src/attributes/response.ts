import {
  type AttributeRecord,
  chatResponseIdentity,
  type JsonRecord,
  readUsage,
  responseIdentityAttributes,
  usageAttributes,
} from '@arclight/core';

/** `gen_ai.response.id|model`, `gen_ai.openai.system_fingerprint` and `gen_ai.usage.*` of any endpoint. */
export function responseMetadataAttributes(response: JsonRecord): AttributeRecord {
  const usage = readUsage(response.usage);
  return {
    ...responseIdentityAttributes(chatResponseIdentity(response)),
    ...(usage && usageAttributes(usage)),
  };
}
