"""What sharing and recording keep: the operator's settings (``config``), the secret scan that
masks a transcript before it leaves the page (``redact``) and the store of shared links and guard
records (``store``, SQLite or PostgreSQL). The app, the CLI and the guard use it; the engine never
imports it."""
