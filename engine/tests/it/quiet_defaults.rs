//! Quiet defaults: `compile` writes its artifact outside the source tree unless `--out` says
//! where, and the CI example is a workflow whose every `lintel` command parses.

use std::path::Path;

use super::lintel;

#[test]
fn compile_without_out_writes_the_artifact_to_the_cache_folder_not_the_project() {
    let project = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    std::fs::write(
        project.path().join("architecture.ag"),
        "node app : server\ncomponent A { runs_on: app paths: \"a/**\" }\n",
    )
    .unwrap();
    let output = lintel()
        .current_dir(project.path())
        .env("XDG_CACHE_HOME", cache.path())
        .args(["compile", "architecture.ag"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let entries: Vec<String> = std::fs::read_dir(project.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        entries,
        ["architecture.ag"],
        "nothing written into the project"
    );
    let folders: Vec<_> = std::fs::read_dir(cache.path().join("lintel/artifacts"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    assert_eq!(folders.len(), 1);
    let artifact = folders[0].join("architecture.o");
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&artifact).unwrap()).unwrap();
    assert_eq!(written["lintel_artifact"], 1);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(
        stderr,
        format!(
            "ok: `architecture.ag` compiled; wrote {} (outside the project; `--out FILE` writes it elsewhere)\n",
            artifact.display()
        )
    );
    // `--out` still writes where it is told.
    let output = lintel()
        .current_dir(project.path())
        .env("XDG_CACHE_HOME", cache.path())
        .args(["compile", "architecture.ag", "--out", "architecture.o"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(project.path().join("architecture.o").is_file());
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "ok: `architecture.ag` compiled; wrote `architecture.o`\n"
    );
}

/// Splits a shell command line into words: whitespace separates, single and double quotes group.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut has_word = false;
    for character in line.chars() {
        match (quote, character) {
            (Some(open), _) if character == open => quote = None,
            (Some(_), _) => word.push(character),
            (None, '"' | '\'') => {
                quote = Some(character);
                has_word = true;
            }
            (None, _) if character.is_whitespace() => {
                if has_word {
                    words.push(std::mem::take(&mut word));
                    has_word = false;
                }
            }
            (None, _) => {
                word.push(character);
                has_word = true;
            }
        }
    }
    assert!(quote.is_none(), "unbalanced quote in `{line}`");
    if has_word {
        words.push(word);
    }
    words
}

#[test]
fn the_ci_example_has_no_placeholders_and_every_lintel_command_in_it_parses() {
    use yaml_rust2::{Yaml, YamlLoader};
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/ci/lintel.yml");
    let text = std::fs::read_to_string(path).unwrap();
    for placeholder in ["OWNER", "TODO", "FIXME", "<your", "example.com", "CHANGEME"] {
        assert!(
            !text.contains(placeholder),
            "placeholder `{placeholder}` in the CI example"
        );
    }
    let documents = YamlLoader::load_from_str(&text).unwrap();
    assert_eq!(documents.len(), 1);
    let workflow = &documents[0];
    assert!(!workflow["on"]["pull_request"].is_badvalue());
    let steps = workflow["jobs"]["lintel"]["steps"].as_vec().unwrap();
    let uses: Vec<&str> = steps
        .iter()
        .filter_map(|step| step["uses"].as_str())
        .collect();
    assert!(uses
        .iter()
        .any(|action| action.starts_with("actions/checkout@")));
    let checkout = steps
        .iter()
        .find(|step| {
            step["uses"]
                .as_str()
                .is_some_and(|action| action.starts_with("actions/checkout@"))
        })
        .unwrap();
    // `--diff` needs the merge base: a shallow clone would stop with `missing-merge-base`.
    assert_eq!(checkout["with"]["fetch-depth"], Yaml::Integer(0));
    // lintel is a cached build: the binary is restored by lintel's revision, and built only on a miss.
    let binary_cache = steps
        .iter()
        .find(|step| step["with"]["path"].as_str() == Some("~/.cargo/bin/lintel"))
        .expect("a step that caches the lintel binary");
    let key = binary_cache["with"]["key"].as_str().unwrap();
    assert!(key.contains("steps.lintel-rev.outputs.sha"), "{key}");
    let cache_id = binary_cache["id"].as_str().unwrap();
    let build = steps
        .iter()
        .find(|step| {
            step["run"]
                .as_str()
                .is_some_and(|run| run.contains("cargo install"))
        })
        .expect("a step that builds lintel");
    let condition = build["if"].as_str().unwrap();
    assert!(
        condition.contains(&format!("steps.{cache_id}.outputs.cache-hit != 'true'")),
        "{condition}"
    );
    assert!(build["run"]
        .as_str()
        .unwrap()
        .contains("--rev \"$LINTEL_REV\""));
    let mut commands = Vec::new();
    for step in steps {
        let Some(script) = step["run"].as_str() else {
            continue;
        };
        for line in script.lines() {
            // One command per line; a redirection or `||` ends the lintel part.
            let command = line
                .split(" > ")
                .next()
                .unwrap()
                .split(" || ")
                .next()
                .unwrap()
                .trim();
            if !command.starts_with("lintel ") {
                continue;
            }
            let expanded = command.replace("${{ github.base_ref }}", "main");
            assert!(
                !expanded.contains("${{"),
                "unexpanded expression in `{command}`"
            );
            commands.push(shell_words(&expanded));
        }
    }
    assert_eq!(commands.len(), 2, "{commands:?}");
    for argv in &commands {
        let parsed = <engine::Cli as clap::Parser>::try_parse_from(argv);
        let cli =
            parsed.unwrap_or_else(|error| panic!("`{}` does not parse: {error}", argv.join(" ")));
        let engine::Command::Check(arguments) = cli.command else {
            panic!("`{}` is not `lintel check`", argv.join(" "));
        };
        assert_eq!(arguments.diff.as_deref(), Some("origin/main"));
        assert!(arguments.new_only);
    }
    assert_eq!(
        shell_words("a \"b c\" 'd' e"),
        ["a", "b c", "d", "e"],
        "the splitter itself"
    );
}
