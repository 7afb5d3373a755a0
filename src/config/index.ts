/** Profiles: schema, defaults and the config file. */
export {
  CREDENTIAL_STORES,
  DEFAULTS,
  OUTPUT_FORMATS,
  PROFILE_KEYS,
  assertProfileKey,
  formatDuration,
  isLoopbackHost,
  isProfileKey,
  parseDurationMs,
  validateProfileName,
  validateServiceUrl,
  validateSetting,
  withDefaults,
  type CredentialStoreMode,
  type ProfileKey,
  type ProfileSettings,
} from './schema.js';
export { CONFIG_FILE_NAME, openConfig, readConfigFile, type ConfigFile, type ConfigStore } from './store.js';
