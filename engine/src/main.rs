//! The `lintel` binary: reads the process arguments and hands them to [`engine::run_os`].

#[cfg(all(unix, not(target_env = "musl")))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() {
    // As the OS gives them: `std::env::args` panics on an argument that is not UTF-8.
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    {
        use std::io::IsTerminal;
        engine::set_terminals(
            std::io::stdout().is_terminal(),
            std::io::stderr().is_terminal(),
        );
    }
    // Output is buffered per stream; a closed pipe makes writes fail quietly, and the exit code
    // still reflects the verdict. Neither stream is locked for the whole run: a thread that
    // panics (an extraction worker, the solver thread) writes its message to stderr, and would
    // wait forever for a lock this thread holds while it waits for that thread.
    let mut out = engine::WatchedOutput::new(std::io::BufWriter::new(std::io::stdout()));
    let mut err = std::io::stderr();
    let status = engine::run_os(argv, &mut out, &mut err);
    // Output lost for another reason than a closed pipe (a full disk) is an error: exit 2.
    let status = out.finish(status, &mut err);
    std::process::exit(status.code());
}
