// The Trusted Types default policy, before anything else of the app runs (src/lib/trusted-types.ts).
import '$lib/trusted-types';
