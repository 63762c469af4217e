//! Hostile input, end to end through the `lintel` binary (issue "Hardening"): special files,
//! symbolic links out of the project, huge globs, unreadable folders. Each test builds its input
//! in a temporary directory and asserts the promise: the exit code, exactly one JSON document
//! with `--json`, the coded error or the `file-skipped` warning, bounded time and memory (measured
//! here, with generous bounds for a debug build), and no byte of outside content in the output.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use super::{lintel, write_files};

/// Longest any run here may take (a debug build on a loaded 2-core machine): a hang fails.
const TIME_BOUND: Duration = Duration::from_secs(60);

/// Peak resident memory any run here may reach.
const MEMORY_BOUND_MIB: u64 = 400;

/// A spec whose `App` (`app/**`) may not flow to `Db` (`db/**`).
const FLOW_SPEC: &str = "node n : server\ncomponent App { runs_on: n paths: \"app/**\" }\ncomponent Db { runs_on: n paths: \"db/**\" }\ninvariant Layers { deny flow App -> Db }\n";

/// A TypeScript file of `App` that imports `Db`: one `deny flow` finding.
const VIOLATING_APP: &str =
    "import { query } from \"../db/store\";\nexport const handler = () => query();\n";

/// What a bounded run gives: its output and its peak resident memory.
struct Bounded {
    output: Output,
    peak_mib: u64,
}

impl Bounded {
    fn code(&self) -> i32 {
        self.output.status.code().expect("exited, not killed")
    }

    fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.output.stdout).into_owned()
    }

    fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.output.stderr).into_owned()
    }

    /// Stdout as exactly one JSON document.
    fn document(&self) -> serde_json::Value {
        let stdout = self.stdout();
        let mut documents =
            serde_json::Deserializer::from_str(&stdout).into_iter::<serde_json::Value>();
        let document = documents
            .next()
            .expect("one JSON document")
            .expect("valid JSON");
        assert!(
            documents.next().is_none(),
            "exactly one JSON document: {stdout}"
        );
        document
    }
}

/// Peak resident memory of a running process, from `/proc` (Linux); 0 where unknown.
fn peak_resident_mib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|line| line.starts_with("VmHWM:"))
                .and_then(|line| line.split_whitespace().nth(1))
                .and_then(|kib| kib.parse::<u64>().ok())
        })
        .map_or(0, |kib| kib / 1024)
}

/// Runs `command` with its time and peak memory watched: a run over [`TIME_BOUND`] is killed
/// and fails the test, and so does one over [`MEMORY_BOUND_MIB`].
fn bounded(command: &mut Command) -> Bounded {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        stdout.read_to_end(&mut bytes).unwrap();
        bytes
    });
    let err_reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        stderr.read_to_end(&mut bytes).unwrap();
        bytes
    });
    let started = Instant::now();
    let mut peak_mib = 0;
    let status = loop {
        peak_mib = peak_mib.max(peak_resident_mib(child.id()));
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > TIME_BOUND || peak_mib > MEMORY_BOUND_MIB {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!(
                "lintel ran {:?} and reached {peak_mib} MiB: over the bound",
                started.elapsed()
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let output = Output {
        status,
        stdout: out_reader.join().unwrap(),
        stderr: err_reader.join().unwrap(),
    };
    assert!(
        peak_mib <= MEMORY_BOUND_MIB,
        "peak memory {peak_mib} MiB over {MEMORY_BOUND_MIB} MiB"
    );
    Bounded { output, peak_mib }
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success(), "mkfifo {}", path.display());
}

fn symlink(target: impl AsRef<Path>, link: &Path) {
    std::os::unix::fs::symlink(target, link).unwrap();
}

/// A check of `project` with `arguments` after `check`, run from `project`.
fn check(project: &Path, arguments: &[&str]) -> Bounded {
    bounded(
        lintel()
            .current_dir(project)
            .arg("check")
            .args(arguments)
            .arg("--no-cache"),
    )
}

fn warnings_with(document: &serde_json::Value, code: &str) -> Vec<(String, String)> {
    document["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|warning| warning["code"] == code)
        .map(|warning| {
            (
                warning["file"].as_str().unwrap_or_default().to_owned(),
                warning["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// A git repository at `dir` with every file of the work tree staged.
fn stage_all(dir: &Path) -> git2::Repository {
    let repository = git2::Repository::init(dir).unwrap();
    let mut index = repository.index().unwrap();
    index
        .add_all(["*"], git2::IndexAddOption::DEFAULT, None)
        .unwrap();
    index.write().unwrap();
    drop(index);
    repository
}

/// Commits the index on HEAD.
fn commit_index(repository: &git2::Repository, message: &str) {
    let mut index = repository.index().unwrap();
    let tree = repository.find_tree(index.write_tree().unwrap()).unwrap();
    let signature = git2::Signature::now("t", "t@example.invalid").unwrap();
    let parents: Vec<git2::Commit<'_>> = repository
        .head()
        .ok()
        .and_then(|head| head.peel_to_commit().ok())
        .into_iter()
        .collect();
    let parents: Vec<&git2::Commit<'_>> = parents.iter().collect();
    repository
        .commit(
            Some("HEAD"),
            &signature,
            &signature,
            message,
            &tree,
            &parents,
        )
        .unwrap();
}

/// A project with the flow spec and one violating file.
fn violating_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            ("architecture.ag", FLOW_SPEC),
            ("app/handler.ts", VIOLATING_APP),
            ("db/store.ts", "export const query = () => 1;\n"),
        ],
    );
    dir
}

/// Text no project file holds, written in the outside file: it must never reach the output.
const OUTSIDE_CANARY: &str = "OUTSIDE_CANARY_f3a9c1";

fn outside_file(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(
        &path,
        format!("const secret = \"{OUTSIDE_CANARY}\";\nconst b = 2;\nconst c = 3;\n"),
    )
    .unwrap();
    path
}

// Row 1: the spec or an import is a FIFO.

#[test]
fn a_fifo_spec_or_import_is_refused_with_a_coded_error_not_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    mkfifo(&dir.path().join("architecture.ag"));
    let run = check(dir.path(), &["--all", "--json"]);
    assert_eq!(run.code(), 2);
    let document = run.document();
    assert_eq!(document["error"]["code"], "import-not-found", "{document}");
    assert!(document["error"]["message"]
        .as_str()
        .unwrap()
        .contains("not a regular file: a FIFO"));

    std::fs::remove_file(dir.path().join("architecture.ag")).unwrap();
    std::fs::write(
        dir.path().join("architecture.ag"),
        "import \"base.ag\"\nnode n : server\n",
    )
    .unwrap();
    mkfifo(&dir.path().join("base.ag"));
    let run = check(dir.path(), &["--all", "--json"]);
    assert_eq!(run.code(), 2);
    let document = run.document();
    assert_eq!(document["error"]["code"], "import-not-found");
    assert_eq!(document["error"]["line"], 1);
    assert!(document["error"]["message"]
        .as_str()
        .unwrap()
        .contains("`base.ag`: not a regular file: a FIFO"));
}

#[test]
fn a_spec_named_on_the_command_line_that_is_a_fifo_or_a_device_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    mkfifo(&dir.path().join("pipe.ag"));
    symlink("/dev/zero", &dir.path().join("zero.ag"));
    for (spec, what) in [("pipe.ag", "a FIFO"), ("zero.ag", "a character device")] {
        let run = check(dir.path(), &["--all", "--json", "--spec", spec]);
        assert_eq!(run.code(), 2);
        let message = run.document()["error"]["message"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(message.contains(what), "{message}");
    }
}

// Row 4: an import that is a symlink to `/dev/zero`.

#[test]
fn an_import_linked_to_dev_zero_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("architecture.ag"),
        "import \"zero.ag\"\nnode n : server\n",
    )
    .unwrap();
    symlink("/dev/zero", &dir.path().join("zero.ag"));
    let run = check(dir.path(), &["--all", "--json"]);
    assert_eq!(run.code(), 2);
    let document = run.document();
    assert_eq!(document["error"]["code"], "import-not-found");
    assert!(run.peak_mib < 200, "{} MiB", run.peak_mib);
}

// Row 5: the spec is a symlink to `/proc/self/environ`.

#[test]
fn a_spec_linked_to_proc_environ_never_quotes_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    symlink("/proc/self/environ", &dir.path().join("architecture.ag"));
    let canary = "ENVIRONMENT_CANARY_77e1";
    for arguments in [
        vec!["--all", "--json"],
        vec!["--all", "--json", "--spec", "architecture.ag"],
        vec!["--all", "--spec", "architecture.ag"],
    ] {
        let run = bounded(
            lintel()
                .current_dir(dir.path())
                .env("LINTEL_TEST_SECRET", canary)
                .arg("check")
                .args(&arguments)
                .arg("--no-cache"),
        );
        assert_eq!(run.code(), 2, "{arguments:?}");
        assert!(
            !run.stdout().contains(canary) && !run.stderr().contains(canary),
            "{arguments:?}: the environment reached the output"
        );
        if arguments.contains(&"--json") {
            let code = run.document()["error"]["code"].clone();
            assert!(
                code == "spec-unreadable" || code == "import-not-found",
                "{code}"
            );
        } else {
            assert!(
                run.stderr().contains("not a regular file"),
                "{}",
                run.stderr()
            );
        }
    }
}

// Row 21: the default spec is a symlink out of the project.

#[test]
fn a_default_spec_linked_out_of_the_project_is_not_followed_unless_named() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(
        outside.path().join("real.ag"),
        format!("node n : server\ncomponent App {{ runs_on: n paths: \"app/**\" }}\n// {OUTSIDE_CANARY}\n"),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), &[("app/a.ts", "export const a = 1;\n")]);
    symlink(
        outside.path().join("real.ag"),
        &dir.path().join("architecture.ag"),
    );
    let run = check(dir.path(), &["--all", "--json"]);
    assert_eq!(run.code(), 2);
    let document = run.document();
    assert_eq!(document["error"]["code"], "spec-unreadable");
    assert!(document["error"]["message"]
        .as_str()
        .unwrap()
        .contains("name the spec with `--spec`"));
    assert!(!run.stdout().contains(OUTSIDE_CANARY));

    // Named on the command line, the same link is the user's choice and is read.
    let run = check(
        dir.path(),
        &["--all", "--json", "--spec", "architecture.ag"],
    );
    assert_eq!(run.code(), 0, "{}", run.stdout());

    // An import inside the project as written that a link takes out of it is refused too.
    std::fs::remove_file(dir.path().join("architecture.ag")).unwrap();
    std::fs::write(dir.path().join("architecture.ag"), "import \"base.ag\"\n").unwrap();
    symlink(outside.path().join("real.ag"), &dir.path().join("base.ag"));
    let run = check(dir.path(), &["--all", "--json"]);
    assert_eq!(run.code(), 2);
    let message = run.document()["error"]["message"].clone();
    assert!(
        message
            .as_str()
            .unwrap()
            .contains("a symbolic link that leads out of the project is not followed"),
        "{message}"
    );
}

// Row 1 (sources): a source file that is a FIFO or a link to a device.

#[test]
fn a_source_fifo_or_device_link_is_a_file_skipped_warning() {
    let dir = violating_project();
    mkfifo(&dir.path().join("app/pipe.ts"));
    let run = check(dir.path(), &["--all", "--json"]);
    assert_eq!(run.code(), 1, "{}", run.stdout());
    let document = run.document();
    let skipped = warnings_with(&document, "file-skipped");
    assert!(
        skipped
            .iter()
            .any(|(file, message)| file == "app/pipe.ts" && message.contains("a FIFO")),
        "{skipped:?}"
    );
    assert_eq!(document["violations"].as_array().unwrap().len(), 1);
}

// Rows 2 and 6: staged scope, the work-tree copy of a staged file is a FIFO, or a link to a file
// outside the project; text output reads its code frame.

#[test]
fn staged_code_frames_come_from_the_index_not_from_a_fifo_or_an_outside_link() {
    let outside = tempfile::tempdir().unwrap();
    let secret = outside_file(outside.path(), "secret.ts");
    let dir = violating_project();
    let _repository = stage_all(dir.path());
    let handler = dir.path().join("app/handler.ts");

    std::fs::remove_file(&handler).unwrap();
    mkfifo(&handler);
    let run = check(dir.path(), &[]);
    assert_eq!(run.code(), 1, "{}{}", run.stdout(), run.stderr());
    assert!(
        run.stdout()
            .contains("import { query } from \"../db/store\";"),
        "the frame shows the staged blob: {}",
        run.stdout()
    );

    std::fs::remove_file(&handler).unwrap();
    symlink(&secret, &handler);
    let run = check(dir.path(), &[]);
    assert_eq!(run.code(), 1);
    assert!(!run.stdout().contains(OUTSIDE_CANARY), "{}", run.stdout());
    assert!(run.stdout().contains("import { query }"));

    // `explain` reads its snippet from the same snapshot.
    let run = check(dir.path(), &["--json"]);
    let id = run.document()["violations"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for (json, device) in [(true, false), (false, false), (true, true), (false, true)] {
        // The work-tree copy is a FIFO, then a link to a device that never ends.
        std::fs::remove_file(&handler).unwrap();
        if device {
            symlink("/dev/zero", &handler);
        } else {
            mkfifo(&handler);
        }
        let mut command = lintel();
        command
            .current_dir(dir.path())
            .args(["explain", "--no-cache", "--violation", &id]);
        if json {
            command.arg("--json");
        }
        let run = bounded(&mut command);
        assert_eq!(run.code(), 0, "{}{}", run.stdout(), run.stderr());
        assert!(
            run.stdout().contains("import { query }"),
            "{}",
            run.stdout()
        );
    }
}

// Row 16: `--diff` text output after a source folder was replaced by a link to an outside folder.

#[test]
fn diff_code_frames_come_from_the_checked_commit_not_an_outside_folder() {
    let outside = tempfile::tempdir().unwrap();
    outside_file(outside.path(), "handler.ts");
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            ("architecture.ag", FLOW_SPEC),
            ("db/store.ts", "export const query = () => 1;\n"),
        ],
    );
    let repository = stage_all(dir.path());
    commit_index(&repository, "base");
    repository
        .branch(
            "base",
            &repository.head().unwrap().peel_to_commit().unwrap(),
            false,
        )
        .unwrap();
    write_files(dir.path(), &[("app/handler.ts", VIOLATING_APP)]);
    let mut index = repository.index().unwrap();
    index.add_path(Path::new("app/handler.ts")).unwrap();
    index.write().unwrap();
    commit_index(&repository, "head");
    std::fs::remove_dir_all(dir.path().join("app")).unwrap();
    symlink(outside.path(), &dir.path().join("app"));
    let run = check(dir.path(), &["--diff", "base"]);
    assert_eq!(run.code(), 1, "{}{}", run.stdout(), run.stderr());
    assert!(!run.stdout().contains(OUTSIDE_CANARY), "{}", run.stdout());
    assert!(
        run.stdout().contains("import { query }"),
        "{}",
        run.stdout()
    );
}

// Row 15: `compile` of a FIFO.

#[test]
fn compile_of_a_fifo_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    mkfifo(&dir.path().join("pipe.ag"));
    let run = bounded(
        lintel()
            .current_dir(dir.path())
            .args(["compile", "pipe.ag", "--json"]),
    );
    assert_eq!(run.code(), 2);
    let document = run.document();
    assert_eq!(document["ok"], false);
    assert_eq!(document["diagnostics"][0]["code"], "import-not-found");
    assert!(!dir.path().join("pipe.o").exists());
}

// Rows 7, 9 and 20: globs with too many alternatives or too many characters, at every entry
// point: component paths, workflow branch and tag patterns, reviewed queries, artifacts.

/// The spec's first error code and message, after a bounded run.
fn spec_error(dir: &Path, arguments: &[&str]) -> (String, String, String) {
    let run = check(dir, arguments);
    assert_eq!(run.code(), 2, "{}", run.stdout());
    // Rows 7, 9 and 20 promise under 100 MiB.
    assert!(run.peak_mib < 100, "{} MiB", run.peak_mib);
    let document = run.document();
    assert!(
        run.stdout().len() < 64 * 1024,
        "the error document stays small: {} bytes",
        run.stdout().len()
    );
    (
        document["error"]["code"].as_str().unwrap().to_owned(),
        document["error"]["message"].as_str().unwrap().to_owned(),
        run.stdout(),
    )
}

#[test]
fn a_component_glob_with_too_many_alternatives_is_an_invalid_glob() {
    let dir = tempfile::tempdir().unwrap();
    let glob = "{a,b}".repeat(17);
    std::fs::write(
        dir.path().join("architecture.ag"),
        format!("node n : server\ncomponent App {{ runs_on: n paths: \"{glob}/**\" }}\n"),
    )
    .unwrap();
    let (code, message, _) = spec_error(dir.path(), &["--all", "--json"]);
    assert_eq!(code, "invalid-glob");
    assert!(message.contains("more than 256 alternatives"), "{message}");
}

#[test]
fn a_huge_component_or_exclude_glob_is_an_invalid_glob_not_an_internal_error() {
    let long = "a".repeat(400_000);
    for spec in [
        format!("node n : server\ncomponent App {{ runs_on: n paths: \"{long}\" }}\n"),
        format!("node n : server\ncomponent App {{ runs_on: n paths: \"app/**\" }}\nexclude \"{long}\"\n"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("architecture.ag"), spec).unwrap();
        let (code, message, stdout) = spec_error(dir.path(), &["--all", "--json"]);
        assert_eq!(code, "invalid-glob");
        assert!(message.contains("longer than 4096 bytes"), "{message}");
        assert!(!stdout.contains(&"a".repeat(200)), "the glob is quoted short");
    }
}

#[test]
fn a_huge_workflow_tag_or_branch_glob_is_an_invalid_glob() {
    let long = "v".repeat(330_000);
    for condition in ["tag", "branch"] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("architecture.ag"),
            format!("node app : server\nnode npm : package_registry\ncomponent Release {{ runs_on: app paths: \".github/workflows/release.yml\" }}\nworkflow_policy Ship {{ allow publish Release -> npm when {condition} \"{long}\" }}\n"),
        )
        .unwrap();
        let (code, message, _) = spec_error(dir.path(), &["--all", "--json"]);
        assert_eq!(code, "invalid-glob", "{condition}");
        assert!(message.contains("longer than 4096 bytes"), "{message}");
    }
}

#[test]
fn a_huge_or_wide_query_file_glob_is_an_invalid_glob() {
    for glob in ["q".repeat(330_000), "{a,b}".repeat(17)] {
        let dir = violating_project();
        write_files(
            dir.path(),
            &[(
                ".lintel/queries/big.agq.yml",
                &format!("id: Big\nowner: team\nversion: 1\nconfidence: definite\nmatch:\n  kind: import\n  file: \"{glob}\"\nemit:\n  kind: flow\n  from: \"$subject\"\n  to: App\n"),
            )],
        );
        let (code, message, _) = spec_error(dir.path(), &["--all", "--json"]);
        assert_eq!(code, "query-invalid-glob", "{message}");
    }
}

/// A valid artifact of `spec`, compiled by `lintel compile`, as JSON.
fn compiled_artifact(spec: &str) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("architecture.ag"), spec).unwrap();
    let run = bounded(lintel().current_dir(dir.path()).args([
        "compile",
        "architecture.ag",
        "--out",
        "architecture.o",
    ]));
    assert_eq!(run.code(), 0, "{}", run.stderr());
    serde_json::from_str(&std::fs::read_to_string(dir.path().join("architecture.o")).unwrap())
        .unwrap()
}

#[test]
fn a_tampered_artifact_with_a_huge_glob_or_an_undeclared_entity_is_artifact_invalid() {
    let artifact = compiled_artifact(&format!(
        "{FLOW_SPEC}node npm : package_registry\ncomponent Release {{ runs_on: n paths: \".github/workflows/release.yml\" }}\nworkflow_policy Ship {{ allow publish Release -> npm when tag \"v*\" }}\n"
    ));
    let long = "x".repeat(330_000);
    let mut huge_path = artifact.clone();
    huge_path["model"]["components"][0]["paths"][0] = serde_json::json!(long);
    let mut huge_tag = artifact.clone();
    let serialized = serde_json::to_string(&huge_tag).unwrap();
    huge_tag = serde_json::from_str(&serialized.replace("\"v*\"", &format!("\"{long}\""))).unwrap();
    assert_ne!(huge_tag, artifact, "the tag glob was replaced");
    let mut wide_path = artifact.clone();
    wide_path["model"]["components"][0]["paths"][0] = serde_json::json!("{a,b}".repeat(17));
    let mut undeclared = artifact.clone();
    let serialized = serde_json::to_string(&undeclared).unwrap();
    undeclared = serde_json::from_str(&serialized.replace(
        "\"from\":\"App\",\"to\":\"Db\"",
        "\"from\":\"App\",\"to\":\"Ghost\"",
    ))
    .unwrap();
    assert_ne!(undeclared, artifact, "the rule's target was replaced");
    for (name, tampered) in [
        ("huge path", huge_path),
        ("huge tag", huge_tag),
        ("wide path", wide_path),
        ("undeclared", undeclared),
    ] {
        let dir = violating_project();
        std::fs::remove_file(dir.path().join("architecture.ag")).unwrap();
        std::fs::write(
            dir.path().join("architecture.o"),
            serde_json::to_string(&tampered).unwrap(),
        )
        .unwrap();
        let (code, message, stdout) = spec_error(dir.path(), &["--all", "--json"]);
        assert_eq!(code, "artifact-invalid", "{name}: {message}");
        assert!(!stdout.contains(&"x".repeat(200)), "{name}: quoted short");
    }
}

// Row 10: a folder under the project that cannot be read.

/// True when a folder with no permissions can still be listed: the tests run as root (or with
/// `CAP_DAC_OVERRIDE`), and permissions cannot hide anything.
fn permissions_are_overridden(locked: &Path) -> bool {
    std::fs::read_dir(locked).is_ok()
}

fn lock(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// A `lintel` command run as `nobody` in `project` (handed over to `nobody`), when this test runs
/// as root and `setpriv` is there to drop the privileges; `None` otherwise.
fn as_nobody(project: &Path) -> Option<Command> {
    const NOBODY: u32 = 65_534;
    let available = Command::new("setpriv")
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success());
    if !available {
        return None;
    }
    fn hand_over(path: &Path) {
        std::os::unix::fs::lchown(path, Some(NOBODY), Some(NOBODY)).unwrap();
        if path.is_dir() && !path.is_symlink() {
            // A folder locked with mode 000 is still listed here: this runs as root.
            for entry in std::fs::read_dir(path).unwrap() {
                hand_over(&entry.unwrap().path());
            }
        }
    }
    hand_over(project);
    let mut command = Command::new("setpriv");
    command
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(assert_cmd::cargo::cargo_bin("lintel"))
        .current_dir(project)
        .env("HOME", project);
    Some(command)
}

#[test]
fn an_unreadable_folder_is_a_file_skipped_warning_untracked_or_tracked() {
    for tracked in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        write_files(
            dir.path(),
            &[
                ("architecture.ag", FLOW_SPEC),
                (
                    "app/locked/handler.ts",
                    "import { query } from \"../../db/store\";\nexport const handler = () => query();\n",
                ),
                ("db/store.ts", "export const query = () => 1;\n"),
            ],
        );
        if tracked {
            stage_all(dir.path());
        }
        let locked = dir.path().join("app/locked");
        lock(&locked, 0o000);
        // Running as root (or with `CAP_DAC_OVERRIDE`) the folder stays readable: the run is
        // then repeated as `nobody` when `setpriv` is there, else only the finding is checked
        // (the "cannot read" half needs an unprivileged run).
        let overridden = permissions_are_overridden(&locked);
        // As root, the unprivileged case is still checked when `setpriv` can drop to `nobody`.
        let (run, overridden) = match (overridden, as_nobody(dir.path())) {
            (true, Some(mut command)) => (
                bounded(command.args(["check", "--all", "--json", "--no-cache"])),
                false,
            ),
            _ => (check(dir.path(), &["--all", "--json"]), overridden),
        };
        lock(&locked, 0o755);
        let document = run.document();
        let found = document["violations"].as_array().unwrap().len();
        let skipped = warnings_with(&document, "file-skipped");
        if overridden {
            assert_eq!(run.code(), 1, "{document}");
            assert_eq!(found, 1, "{document}");
        } else {
            // The folder (and, when tracked, the file itself) is named with the reason.
            assert!(
                skipped
                    .iter()
                    .any(|(file, message)| file == "app/locked"
                        && message.contains("ermission denied")),
                "tracked={tracked}: {skipped:?}"
            );
            if tracked {
                assert!(
                    skipped
                        .iter()
                        .any(|(file, _)| file == "app/locked/handler.ts"),
                    "{skipped:?}"
                );
            }
            assert_eq!(
                document["stats"]["files_skipped"].as_u64().unwrap(),
                u64::try_from(skipped.len()).unwrap()
            );
        }
    }
}

// Row 11: a source path longer than PATH_MAX.

#[test]
fn a_path_too_long_to_open_is_a_file_skipped_warning() {
    let dir = violating_project();
    // Each call below names a path shorter than PATH_MAX; the result is longer.
    let segment = "d".repeat(200);
    let half: PathBuf = std::iter::repeat_n(segment.as_str(), 11).collect();
    let first = dir.path().join("app").join(&half);
    std::fs::create_dir_all(&first).unwrap();
    let staging = dir.path().join("staging");
    let second = staging.join(&half);
    std::fs::create_dir_all(&second).unwrap();
    std::fs::write(second.join("deep.ts"), VIOLATING_APP).unwrap();
    std::fs::rename(staging.join(&segment), first.join("more")).unwrap();
    let run = check(dir.path(), &["--all", "--json"]);
    let document = run.document();
    assert_eq!(run.code(), 1);
    let skipped = warnings_with(&document, "file-skipped");
    assert!(
        skipped
            .iter()
            .any(|(file, message)| file.starts_with("app/ddd") && message.contains("too long")),
        "{skipped:?}"
    );
}

// A symbolic link met while walking that leaves the project is a warning, never followed.

#[test]
fn a_link_out_of_the_project_met_while_walking_is_a_warning() {
    let outside = tempfile::tempdir().unwrap();
    outside_file(outside.path(), "handler.ts");
    let dir = violating_project();
    symlink(outside.path(), &dir.path().join("app/linked"));
    let run = check(dir.path(), &["--all", "--json"]);
    assert_eq!(run.code(), 1);
    let document = run.document();
    let skipped = warnings_with(&document, "file-skipped");
    assert!(
        skipped
            .iter()
            .any(|(file, message)| file == "app/linked"
                && message.contains("leads out of the project")),
        "{skipped:?}"
    );
    assert!(!run.stdout().contains(OUTSIDE_CANARY));
}

// Row 8: a spec of 2,000,000 `#` characters.

#[test]
fn a_spec_of_millions_of_stray_characters_reports_the_first_diagnostics_and_a_count() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("architecture.ag"), "#".repeat(2_000_000)).unwrap();
    let run = check(dir.path(), &["--all", "--json"]);
    assert_eq!(run.code(), 2);
    assert!(run.peak_mib < 100, "{} MiB", run.peak_mib);
    assert!(
        run.stdout().len() < 256 * 1024,
        "{} bytes",
        run.stdout().len()
    );
    let document = run.document();
    assert_eq!(document["error"]["code"], "invalid-character");
    let diagnostics = document["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 201);
    let last = diagnostics.last().unwrap();
    assert_eq!(last["code"], "too-many-diagnostics");
    assert_eq!(
        last["message"],
        "1999800 more diagnostic(s) are not reported (the first 200 are)"
    );
    // The text output is as short.
    let run = check(dir.path(), &["--all"]);
    assert_eq!(run.code(), 2);
    assert!(
        run.stderr().len() < 256 * 1024,
        "{} bytes",
        run.stderr().len()
    );
}

// Row 17: a command-line argument that is not UTF-8.

#[test]
fn a_non_utf8_argument_is_a_usage_error_not_a_panic() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let bad = std::ffi::OsStr::from_bytes(b"\xff");
    let run = bounded(
        lintel()
            .current_dir(dir.path())
            .args(["check", "--json", "--project"])
            .arg(bad),
    );
    assert_eq!(run.code(), 2);
    let document = run.document();
    assert_eq!(document["error"]["code"], "usage-error");
    assert!(document["error"]["message"]
        .as_str()
        .unwrap()
        .contains("not valid UTF-8"));
    let run = bounded(
        lintel()
            .current_dir(dir.path())
            .args(["check", "--project"])
            .arg(bad),
    );
    assert_eq!(run.code(), 2);
    assert!(
        run.stderr().contains("error[usage-error]"),
        "{}",
        run.stderr()
    );
}

// Row 18: `--threads 100000`.

#[test]
fn a_huge_thread_count_is_capped() {
    let dir = violating_project();
    let run = check(dir.path(), &["--all", "--json", "--threads", "100000"]);
    assert_eq!(run.code(), 1);
    assert_eq!(run.document()["violations"].as_array().unwrap().len(), 1);
    assert!(run.peak_mib < 300, "{} MiB", run.peak_mib);
}

/// A ring of `count` components, each `layer: L`, each importing the next, and
/// `deny reach layer L -> layer L`: `count * (count - 1)` slices.
fn ring_project(count: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut spec = String::from("node n : server\n");
    for index in 0..count {
        let next = (index + 1) % count;
        spec.push_str(&format!(
            "component C{index} {{ runs_on: n paths: \"c{index}/**\" layer: L }}\n"
        ));
        write_files(
            dir.path(),
            &[(
                &format!("c{index}/m.ts"),
                &format!("import {{ x{next} }} from \"../c{next}/m\";\nexport const x{index} = () => x{next};\n"),
            )],
        );
    }
    spec.push_str("invariant Ring { deny reach layer L -> layer L }\n");
    std::fs::write(dir.path().join("architecture.ag"), spec).unwrap();
    dir
}

// Row 19: an overall budget for the solving phase fails closed with a clear reason.

#[test]
fn the_solving_phase_budget_fails_closed_with_a_budget_reason() {
    let dir = ring_project(20);
    let run = check(dir.path(), &["--all", "--json", "--solve-budget-ms", "0"]);
    assert_eq!(run.code(), 1, "fail closed");
    let document = run.document();
    assert_eq!(document["verdict"], "fail");
    let diagnostics = document["solver_diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 380);
    assert!(diagnostics.iter().all(|slice| slice["status"] == "unknown"
        && slice["reason"]
            .as_str()
            .unwrap()
            .starts_with("budget: the solving phase ran out of its 0 ms budget")));
    assert!(document["agent_context"]
        .as_str()
        .unwrap()
        .contains("--solve-budget-ms 0"));
    // Within the default budget every slice is decided.
    let run = check(dir.path(), &["--all", "--json"]);
    assert_eq!(run.code(), 1);
    let document = run.document();
    assert_eq!(document["violations"].as_array().unwrap().len(), 380);
    assert!(document["solver_diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .all(|slice| slice["status"] == "unsat"));
}

// Row 14: a reach chain through hundreds of components is proven, not left to the clock.

#[test]
fn a_long_reach_chain_is_proven_unsat_by_the_resource_limit_not_the_clock() {
    let hops = 400;
    let dir = tempfile::tempdir().unwrap();
    let mut spec = String::from("node n : server\n");
    for index in 0..hops {
        spec.push_str(&format!(
            "component C{index} {{ runs_on: n paths: \"c{index}/**\" }}\n"
        ));
        let text = if index + 1 < hops {
            let next = index + 1;
            format!("import {{ x{next} }} from \"../c{next}/m\";\nexport const x{index} = () => x{next};\n")
        } else {
            format!("export const x{index} = () => 1;\n")
        };
        write_files(dir.path(), &[(&format!("c{index}/m.ts"), &text)]);
    }
    spec.push_str(&format!(
        "invariant Chain {{ deny reach C0 -> C{} }}\n",
        hops - 1
    ));
    std::fs::write(dir.path().join("architecture.ag"), spec).unwrap();
    // The wall-clock safety net is set far out: only the resource limit may decide `unknown`.
    let run = check(
        dir.path(),
        &["--all", "--json", "--slice-timeout-ms", "600000"],
    );
    assert_eq!(run.code(), 1);
    let document = run.document();
    let slices = document["solver_diagnostics"].as_array().unwrap();
    assert_eq!(slices.len(), 1);
    assert_eq!(slices[0]["status"], "unsat", "{}", slices[0]);
    assert_eq!(document["violations"].as_array().unwrap().len(), 1);
}

// Contract: stdout on a full device.

#[test]
fn output_lost_to_a_full_device_exits_2_with_a_message() {
    let dir = violating_project();
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let output = lintel()
        .current_dir(dir.path())
        .args(["check", "--all", "--no-cache", "--json"])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("error[output-lost]") && stderr.contains("No space left on device"),
        "{stderr}"
    );
}

// Contract: a repository git cannot read is a coded `git-error`, never a guess or a bug report.

#[test]
fn a_corrupt_head_or_index_is_a_git_error() {
    let dir = violating_project();
    let repository = stage_all(dir.path());
    commit_index(&repository, "first");
    drop(repository);
    let git = dir.path().join(".git");
    let head = std::fs::read_to_string(git.join("HEAD")).unwrap();
    std::fs::write(git.join("HEAD"), "garbage\n").unwrap();
    for scope in [vec!["--json"], vec!["--json", "--diff", "HEAD"]] {
        let run = check(dir.path(), &scope);
        assert_eq!(run.code(), 2, "{scope:?}");
        let document = run.document();
        assert_eq!(document["error"]["code"], "git-error", "{document}");
        assert!(document["error"]["message"]
            .as_str()
            .unwrap()
            .contains("HEAD"));
    }
    std::fs::write(git.join("HEAD"), head).unwrap();
    std::fs::write(git.join("index"), b"DIRC\x00\x00\x00\x02garbage").unwrap();
    for scope in [vec!["--json"], vec!["--json", "--all"]] {
        let run = check(dir.path(), &scope);
        assert_eq!(run.code(), 2, "{scope:?}");
        assert_eq!(run.document()["error"]["code"], "git-error", "{scope:?}");
    }
}

// Contract: `compile --json` prints `{schema_version, ok, diagnostics}` even when it cannot
// finish.

#[test]
fn compile_json_keeps_its_shape_on_an_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("architecture.ag"), FLOW_SPEC).unwrap();
    let run = bounded(lintel().current_dir(dir.path()).args([
        "compile",
        "architecture.ag",
        "--json",
        "--out",
        "no/such/dir/x.o",
    ]));
    assert_eq!(run.code(), 2);
    let document = run.document();
    assert_eq!(document["schema_version"], 2);
    assert_eq!(document["ok"], false);
    assert_eq!(document["diagnostics"][0]["code"], "usage-error");
    assert_eq!(document["diagnostics"][0]["file"], "architecture.ag");
}

// Row 1 (configurations and queries): resolver configurations and query files that are FIFOs
// or links to a device are never read; the check completes.

#[test]
fn configuration_and_query_files_that_are_fifos_or_devices_are_not_read() {
    let dir = violating_project();
    for config in ["tsconfig.json", "go.mod", ".gitattributes", "Cargo.toml"] {
        mkfifo(&dir.path().join(config));
    }
    symlink("/dev/zero", &dir.path().join("package.json"));
    symlink("/dev/zero", &dir.path().join("pyproject.toml"));
    std::fs::create_dir_all(dir.path().join(".lintel/queries")).unwrap();
    mkfifo(&dir.path().join(".lintel/queries/pipe.agq.yml"));
    symlink(
        "/dev/zero",
        &dir.path().join(".lintel/queries/zero.agq.yml"),
    );
    let run = check(dir.path(), &["--all", "--json"]);
    assert_eq!(run.code(), 1, "{}", run.stdout());
    let document = run.document();
    assert_eq!(document["violations"].as_array().unwrap().len(), 1);
    let skipped = warnings_with(&document, "file-skipped");
    for fifo in ["tsconfig.json", "go.mod", ".lintel/queries/pipe.agq.yml"] {
        assert!(
            skipped.iter().any(|(file, _)| file == fifo),
            "{fifo}: {skipped:?}"
        );
    }
    assert!(run.peak_mib < 200, "{} MiB", run.peak_mib);
}

// Bounded work on queries: a query file of thousands of broken documents reports the first
// diagnostics and a count (10,000 documents took 17 s before, quadratic in the documents).

#[test]
fn a_query_file_of_thousands_of_broken_documents_is_bounded() {
    let dir = violating_project();
    write_files(
        dir.path(),
        &[(
            ".lintel/queries/many.agq.yml",
            &"---\nid: 1\n".repeat(20_000),
        )],
    );
    let run = check(dir.path(), &["--all", "--json"]);
    assert_eq!(run.code(), 2);
    assert!(
        run.stdout().len() < 256 * 1024,
        "{} bytes",
        run.stdout().len()
    );
    let document = run.document();
    assert_eq!(document["error"]["code"], "query-missing-key");
    let diagnostics = document["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 201);
    assert_eq!(diagnostics[200]["code"], "too-many-diagnostics");
    assert_eq!(
        diagnostics[200]["message"],
        "119800 more diagnostic(s) are not reported (the first 200 are)"
    );
}

// A tracked symbolic link that leads out of the project (staged and `--diff` scopes) is a
// warning, never followed.

#[test]
fn a_tracked_link_out_of_the_project_is_a_warning_in_git_scopes() {
    let outside = tempfile::tempdir().unwrap();
    let secret = outside_file(outside.path(), "secret.ts");
    let dir = violating_project();
    symlink(&secret, &dir.path().join("app/linked.ts"));
    let repository = stage_all(dir.path());
    let run = check(dir.path(), &["--json"]);
    assert_eq!(run.code(), 1);
    let skipped = warnings_with(&run.document(), "file-skipped");
    assert!(
        skipped.iter().any(|(file, message)| file == "app/linked.ts"
            && message.contains("leads out of the project")),
        "{skipped:?}"
    );
    assert!(!run.stdout().contains(OUTSIDE_CANARY));
    commit_index(&repository, "with a link");
    let run = check(dir.path(), &["--json", "--diff", "HEAD"]);
    let skipped = warnings_with(&run.document(), "file-skipped");
    assert!(
        skipped.iter().any(|(file, _)| file == "app/linked.ts"),
        "{skipped:?}"
    );
}

// The error document stays small whatever the spec holds: a name of megabytes is cut.

#[test]
fn a_megabyte_name_is_cut_in_messages() {
    let dir = tempfile::tempdir().unwrap();
    let name = "A".repeat(3_000_000);
    std::fs::write(
        dir.path().join("architecture.ag"),
        format!("node n : server\ninvariant I {{ deny flow {name} -> n }}\n"),
    )
    .unwrap();
    let run = check(dir.path(), &["--all", "--json"]);
    assert_eq!(run.code(), 2);
    assert!(
        run.stdout().len() < 64 * 1024,
        "{} bytes",
        run.stdout().len()
    );
    assert!(run.peak_mib < 200, "{} MiB", run.peak_mib);
}
