//! `lintel bench-parse` (hidden): the parse-only floor for benchmarks. It reads and parses with
//! tree-sitter exactly the files `check` parses (every source file it extracts, owned or not:
//! readable, and not generated unless `--include-generated`; and the generated Java, Kotlin and
//! C# files, which it parses for the types they declare), in parallel, and runs no query,
//! resolution or solving,
//! so `check --all` time divided by this time is the pipeline's overhead.

use std::io::Write;
use std::time::Instant;

use rayon::prelude::*;

use crate::cli::commands::check::{report_error, CheckArgs};
use crate::cli::exit::ExitStatus;
use crate::error::EngineError;
use crate::input::options::CheckOptions;
use crate::input::paths::ComponentMap;
use crate::input::scope::{read_file, resolve};
use crate::input::spec::load_spec;

/// Parses every file `check` would parse; returns (files parsed, error nodes, elapsed ms).
pub fn parse_floor(options: &CheckOptions) -> Result<(usize, usize, u64), EngineError> {
    let started = Instant::now();
    let root = options.project.as_path();
    let spec = load_spec(root, options.spec.as_deref())?;
    let scope = resolve(root, &options.scope)?;
    let map = ComponentMap::new(&spec.model);
    let attributes = scope
        .project_files
        .iter()
        .any(|file| file == ".gitattributes")
        .then(|| {
            read_file(
                &scope,
                root,
                None,
                ".gitattributes",
                crate::input::scope::SOURCE_LIMIT,
            )
            .ok()
        })
        .flatten()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .map(|text| extractors::GitAttributes::parse(&text))
        .unwrap_or_default();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads.unwrap_or(0))
        .stack_size(crate::input::extract::WORKER_STACK_BYTES)
        .build()
        .map_err(|error| EngineError::Internal(error.to_string()))?;
    let parsed: Vec<usize> = pool.install(|| {
        scope
            .project_files
            .par_iter()
            // Scheduled as `check` schedules its files (`extract::extract_files`).
            .with_max_len(1)
            .filter_map(|file| {
                // `check` never reads an excluded file.
                if map.is_excluded(file) {
                    return None;
                }
                // `check` extracts every other file, owned or not (unowned ones for chains),
                // and parses the generated Java, Kotlin and C# files too, for their types.
                let for_declarations = extractors::reads_declarations(file);
                extractors::Language::for_path(file)?;
                let bytes =
                    read_file(&scope, root, None, file, crate::input::scope::SOURCE_LIMIT).ok()?;
                // Nor does `check` read a file larger than 2 MiB, nor extract a binary-looking
                // one (`extract::first_one`).
                if bytes.len() > crate::input::scope::MAX_FILE_BYTES {
                    return None;
                }
                let binary = crate::input::extract::skip_reason(&bytes).is_some();
                let text = String::from_utf8(bytes).ok()?;
                let extracted = !binary
                    && (options.include_generated
                        || !extractors::is_generated(file, &text, &attributes));
                if !extracted && !for_declarations {
                    return None;
                }
                extractors::parse_only(file, &text)
            })
            .collect()
    });
    let elapsed = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    Ok((parsed.len(), parsed.iter().sum(), elapsed))
}

/// Runs `bench-parse`.
pub fn bench_parse_command(
    arguments: &CheckArgs,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> ExitStatus {
    match parse_floor(&arguments.to_options()) {
        Ok((files, errors, elapsed_ms)) => {
            let document = serde_json::json!({ "files": files, "parse_errors": errors, "elapsed_ms": elapsed_ms });
            match crate::render::json::write(stdout, &document) {
                Ok(()) => ExitStatus::Pass,
                Err(_) => ExitStatus::Error,
            }
        }
        Err(error) => report_error(arguments, &error, stdout, stderr),
    }
}
