#!/usr/bin/env node
// The relay's command. The relay is TypeScript run by tsx (a runtime dependency) rather than a
// second build: it shares src/api and src/live with the widgets, and this keeps one source of truth.
import { register } from 'tsx/esm/api';

register();
await import('../relay/cli.ts');
