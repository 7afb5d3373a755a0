/**
 * Everything a command that talks to the service needs, as one module: the
 * context loads it with a single dynamic import instead of one per layer
 * (each import is a separate round through the module loader at start-up).
 */
export { HttpClient } from './api/http.js';
export { createApi } from './api/client.js';
export { signInOver } from './api/auth.js';
export { createSession } from './auth/credential-session.js';
export { MemoryStore, openSecretStore } from './auth/store/index.js';
