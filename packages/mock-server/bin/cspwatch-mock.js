#!/usr/bin/env node
// A committed launcher, so package managers can link the bin before dist/ is built.
import '../dist/cli.js';
