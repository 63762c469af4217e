//! The `lintel` binary: parses the process arguments and hands them to [`engine::cli::run`].

use std::io::Write;

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    // Output is buffered per stream; a closed pipe makes writes fail quietly, and the exit code
    // still reflects the verdict.
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut err = stderr.lock();
    let status = engine::cli::run(argv, &mut out, &mut err);
    let _ = out.flush();
    drop(out);
    std::process::exit(status.code());
}
