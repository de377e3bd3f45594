#!/usr/bin/env node
// `npm run bench`: a benchmark, not a test. The measures, the server they run against and the
// report live in scripts/bench/ (index.mjs lists them; args.mjs, the options: --build, --soak,
// --inp, and the environment).
import "./bench/index.mjs";
