//! Whether the process's stdout and stderr are terminals: set once by the binary, read by the
//! progress line and by `--color auto`.

/// Whether the process's stdout and stderr are terminals, as the binary found them
/// ([`set_terminals`]). In-process callers of [`run`] write to buffers, so both stay false
/// for them: no colour under `--color auto`, no progress line.
static STDOUT_IS_TERMINAL: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);
static STDERR_IS_TERMINAL: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Tells the CLI which of the process's streams are terminals; `main` calls it before [`run`].
pub fn set_terminals(stdout: bool, stderr: bool) {
    STDOUT_IS_TERMINAL.store(stdout, std::sync::atomic::Ordering::Relaxed);
    STDERR_IS_TERMINAL.store(stderr, std::sync::atomic::Ordering::Relaxed);
}

/// True when the binary's stderr is a terminal ([`set_terminals`]).
pub fn stderr_is_terminal() -> bool {
    STDERR_IS_TERMINAL.load(std::sync::atomic::Ordering::Relaxed)
}

/// True when the binary's stdout is a terminal ([`set_terminals`]).
pub fn stdout_is_terminal() -> bool {
    STDOUT_IS_TERMINAL.load(std::sync::atomic::Ordering::Relaxed)
}
