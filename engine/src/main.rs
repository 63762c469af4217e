//! The `lintel` binary: parses the process arguments and hands them to [`engine::cli::run`].

use std::io::Write;

#[cfg(all(unix, not(target_env = "musl")))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    {
        use std::io::IsTerminal;
        engine::cli::set_terminals(
            std::io::stdout().is_terminal(),
            std::io::stderr().is_terminal(),
        );
    }
    // Output is buffered per stream; a closed pipe makes writes fail quietly, and the exit code
    // still reflects the verdict. Neither stream is locked for the whole run: a thread that
    // panics (an extraction worker, the solver thread) writes its message to stderr, and would
    // wait forever for a lock this thread holds while it waits for that thread.
    let mut out = std::io::BufWriter::new(std::io::stdout());
    let mut err = std::io::stderr();
    let status = engine::cli::run(argv, &mut out, &mut err);
    let _ = out.flush();
    drop(out);
    std::process::exit(status.code());
}
