#!/usr/bin/env node
// The `session-vault` command: checks the Node.js version first (the app's own modules need Node 24), then runs the built CLI.
import { requireSupportedNode } from '../build/check-node.js';

requireSupportedNode();
await import('../out/main/cli.js');
