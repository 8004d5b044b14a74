#!/usr/bin/env node
// The `capsule` (alias `mur`) command. Runs the TypeScript sources through tsx, so the CLI is
// always the checkout's current code and needs no build step.
'use strict';
const { register } = require('tsx/cjs/api');
register();
require('../src-main/cli/main.ts');
