//! Every bundled query compiles for every language and uses only the capture vocabulary.

use std::collections::BTreeSet;
use std::path::Path;

use extractors::{capture_vocabulary, compile_queries, Language};

#[test]
fn every_language_query_compiles_with_known_captures() {
    compile_queries().unwrap();
}

#[test]
fn every_query_file_is_loaded_by_a_language() {
    let loaded: BTreeSet<&str> = Language::ALL
        .into_iter()
        .flat_map(|language| language.spec().queries.iter().map(|file| file.name))
        .collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("queries");
    let mut on_disk = BTreeSet::new();
    for language_dir in std::fs::read_dir(&root).unwrap() {
        let language_dir = language_dir.unwrap().path();
        for file in std::fs::read_dir(&language_dir).unwrap() {
            let file = file.unwrap().path();
            let relative = file
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            on_disk.insert(relative);
        }
    }
    let loaded: BTreeSet<String> = loaded.into_iter().map(str::to_owned).collect();
    assert_eq!(loaded, on_disk);
}

#[test]
fn every_capture_in_query_files_is_in_the_vocabulary() {
    let vocabulary: BTreeSet<String> = capture_vocabulary().into_iter().collect();
    for language in Language::ALL {
        for file in language.spec().queries {
            let patterns: String = file
                .text
                .lines()
                .filter(|line| !line.trim_start().starts_with(';'))
                .collect::<Vec<_>>()
                .join("\n");
            for capture in patterns.split('@').skip(1) {
                let name: String = capture
                    .chars()
                    .take_while(|character| {
                        character.is_alphanumeric() || matches!(character, '.' | '_')
                    })
                    .collect();
                assert!(
                    vocabulary.contains(&name),
                    "`@{name}` in {} is not in the vocabulary",
                    file.name
                );
            }
        }
    }
}
