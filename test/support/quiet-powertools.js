// Tests run outside Lambda: no EMF metrics or X-Ray; logs at warning level (as local mode).
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
process.env.POWERTOOLS_TRACE_ENABLED ??= 'false';
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
