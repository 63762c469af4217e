//! The extraction cache from the command line: shared safely by concurrent runs on one project
//! and on others, never inside the project, never hanging on a FIFO in place of an entry.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::{example, json_run, lintel};

/// Takes the timings and `files_cached` out of a verdict, at any depth.
fn normalise(document: &mut serde_json::Value) {
    match document {
        serde_json::Value::Object(map) => {
            map.shift_remove("files_cached");
            for (key, value) in map.iter_mut() {
                if key == "elapsed_ms" || key == "timestamp" {
                    *value = serde_json::Value::Null;
                } else {
                    normalise(value);
                }
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(normalise),
        _ => {}
    }
}

/// `check --all --json` on `project` with the cache under `cache_home` (`None`: `--no-cache`);
/// the verdict without its timings and `files_cached`.
fn verdict(project: &Path, cache_home: Option<&Path>) -> (serde_json::Value, Option<u64>) {
    let mut command = lintel();
    command
        .args(["check", "--all", "--json", "--project"])
        .arg(project);
    match cache_home {
        Some(home) => command.env("XDG_CACHE_HOME", home),
        None => command.arg("--no-cache"),
    };
    let (_, mut document) = json_run(&mut command);
    let cached = document["stats"]["files_cached"].as_u64();
    normalise(&mut document);
    (document, cached)
}

/// Starts `check --all --json` on `project` with the cache under `cache_home`.
fn spawn(project: &Path, cache_home: &Path) -> std::process::Child {
    lintel()
        .args(["check", "--all", "--json", "--project"])
        .arg(project)
        .env("XDG_CACHE_HOME", cache_home)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// The verdict a spawned run printed, as [`verdict`] gives it.
fn finished(child: std::process::Child) -> serde_json::Value {
    let output = child.wait_with_output().unwrap();
    let mut document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    normalise(&mut document);
    document
}

#[test]
fn ten_concurrent_runs_on_one_project_and_runs_on_another_share_the_cache_safely() {
    let home = tempfile::tempdir().unwrap();
    let one = tempfile::tempdir().unwrap();
    let other = tempfile::tempdir().unwrap();
    tests_copy(&example("checkout-machines"), one.path());
    tests_copy(&example("monorepo-reach"), other.path());
    let (expected_one, _) = verdict(one.path(), None);
    let (expected_other, _) = verdict(other.path(), None);
    // Cold: every run writes the same entries at once.
    for round in 0..2 {
        let mut runs: Vec<(bool, std::process::Child)> = (0..10)
            .map(|_| (true, spawn(one.path(), home.path())))
            .collect();
        runs.extend((0..3).map(|_| (false, spawn(other.path(), home.path()))));
        for (is_one, child) in runs {
            let expected = if is_one {
                &expected_one
            } else {
                &expected_other
            };
            assert!(
                &finished(child) == expected,
                "round {round}: a different verdict"
            );
        }
    }
    // Every entry left is whole, and no temporary file is left behind.
    let mut entries = 0;
    for shard in std::fs::read_dir(home.path().join("lintel/files")).unwrap() {
        let shard = shard.unwrap();
        if !shard.file_type().unwrap().is_dir() {
            continue;
        }
        for entry in std::fs::read_dir(shard.path()).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            assert!(!name.ends_with(".tmp"), "left behind: {name}");
            let text = std::fs::read_to_string(&path).unwrap();
            // An entry is three lines of JSON (the entry, its type lookups, its older variants;
            // the last two may be empty); a summary of a whole-project check is one document.
            let lines: Vec<&str> = text.split('\n').collect();
            assert!(
                lines.len() == 3 || lines.len() == 1,
                "{name}: {} lines",
                lines.len()
            );
            for line in lines.into_iter().filter(|line| !line.is_empty()) {
                serde_json::from_str::<serde_json::Value>(line).unwrap();
            }
            entries += 1;
        }
    }
    assert!(entries > 0);
    let (warm, cached) = verdict(one.path(), Some(home.path()));
    assert!(warm == expected_one, "a different verdict");
    assert!(cached.unwrap() > 0);
}

/// Copies a directory tree (files and folders only).
fn tests_copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            tests_copy(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn a_relative_xdg_cache_home_is_ignored_and_nothing_is_written_inside_the_project() {
    let project = tempfile::tempdir().unwrap();
    tests_copy(&example("layered-api"), project.path());
    let home = tempfile::tempdir().unwrap();
    let (expected, _) = verdict(project.path(), None);
    for _ in 0..2 {
        let mut command = lintel();
        command
            .current_dir(project.path())
            .args(["check", "--all", "--json", "--project", "."])
            .env("XDG_CACHE_HOME", ".cache")
            .env("HOME", home.path());
        let (_, mut document) = json_run(&mut command);
        normalise(&mut document);
        assert!(document == expected, "the same verdict");
    }
    assert!(
        !project.path().join(".cache").exists(),
        "the relative XDG_CACHE_HOME was used"
    );
    // The cache went to `$HOME/.cache` instead, and the second run read it.
    assert!(home.path().join(".cache/lintel/files").is_dir());
    // A relative HOME is no better.
    let mut command = lintel();
    command
        .current_dir(project.path())
        .args(["check", "--all", "--json", "--project", "."])
        .env_remove("XDG_CACHE_HOME")
        .env("HOME", "here");
    let (_, document) = json_run(&mut command);
    assert!(
        document["stats"].get("files_cached").is_none(),
        "no cache can be named"
    );
    assert!(!project.path().join("here").exists());
}

#[cfg(unix)]
#[test]
fn fifos_in_place_of_the_cache_entries_are_misses_not_a_hang() {
    let project = tempfile::tempdir().unwrap();
    tests_copy(&example("layered-api"), project.path());
    let home = tempfile::tempdir().unwrap();
    let (expected, _) = verdict(project.path(), Some(home.path()));
    let mut replaced = 0;
    for shard in std::fs::read_dir(home.path().join("lintel/files")).unwrap() {
        let shard = shard.unwrap();
        if !shard.file_type().unwrap().is_dir() {
            continue;
        }
        for entry in std::fs::read_dir(shard.path()).unwrap() {
            let path = entry.unwrap().path();
            std::fs::remove_file(&path).unwrap();
            assert!(Command::new("mkfifo")
                .arg(&path)
                .status()
                .unwrap()
                .success());
            replaced += 1;
        }
    }
    assert!(replaced > 0);
    let started = Instant::now();
    let mut child = spawn(project.path(), home.path());
    // Measured by the harness, with a generous bound: a blocking open would never return.
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(120) {
            child.kill().unwrap();
            panic!("the run hangs on a FIFO entry");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(finished(child) == expected, "a different verdict");
}

/// A Java type no source file declares is generated code where a `.gitignore` ignores the
/// generated sources of its importer's module: a cached entry made before that rule existed is
/// not used after it changes (the `.gitignore` files are part of what the type-index lookups
/// read), and the cached run answers as a run without the cache does.
#[test]
fn a_changed_gitignore_is_not_answered_from_a_cached_java_entry() {
    let project = tempfile::tempdir().unwrap();
    let cache_home = tempfile::tempdir().unwrap();
    super::write_files(
        project.path(),
        &[
            (
                "architecture.ag",
                "node app : server\ncomponent App { runs_on: app paths: \"app/**\" }\ninvariant Modules { deny unresolved imports in * }\n",
            ),
            (".gitignore", "*.log\n"),
            (
                "app/src/main/java/org/acme/Request.java",
                "package org.acme;\n\nimport org.acme.message.Header;\n\npublic class Request {\n  Header header;\n}\n",
            ),
            (
                "app/src/main/java/org/acme/Node.java",
                "package org.acme;\n\npublic class Node {}\n",
            ),
        ],
    );
    let (before, _) = verdict(project.path(), Some(cache_home.path()));
    assert_eq!(
        before["violations"].as_array().map(Vec::len),
        Some(1),
        "{before:#}"
    );
    std::fs::write(project.path().join(".gitignore"), "*.log\nbuild/\n").unwrap();
    let (cached, files_cached) = verdict(project.path(), Some(cache_home.path()));
    let (fresh, _) = verdict(project.path(), None);
    assert_eq!(cached, fresh);
    assert_eq!(
        fresh["violations"].as_array().map(Vec::len),
        Some(0),
        "{fresh:#}"
    );
    assert!(files_cached.is_some());
}
