// Quiet, deterministic defaults for unit and integration tests.
process.env.NODE_ENV ??= "test";
process.env.LOG_LEVEL ??= "silent";
