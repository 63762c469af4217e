//! A workflow that builds a container image with `docker/build-push-action` publishes only when
//! the step pushes: `push: true` or an expression, or an `outputs` entry that pushes. A pull
//! request's build that leaves `push` false (its default) is no publish, so a closed-world
//! `allow publish` list does not flag it; the same action with `push: true` on a pull request
//! is a violation.

use super::{check_all, write_files};

const SPEC: &str = "node ci : ci_runner\n\
                    node registry : container_registry\n\
                    component Release { runs_on: ci paths: \".github/workflows/release.yml\" }\n\
                    component Checks { runs_on: ci paths: \".github/workflows/checks.yml\" }\n\
                    component Preview { runs_on: ci paths: \".github/workflows/preview.yml\" }\n\
                    workflow_policy Images { allow publish Release -> registry when tag \"v*\" }\n";

const RELEASE: &str = "on:\n  push:\n    tags: [\"v*\"]\njobs:\n  image:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: docker/build-push-action@v6\n        with:\n          push: true\n          tags: ghcr.io/acme/shop:latest\n";

/// A pull request's check builds the image twice, pushing neither.
const CHECKS: &str = "on: [pull_request]\njobs:\n  image:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: docker/build-push-action@v6\n        with:\n          push: false\n          load: true\n      - uses: docker/build-push-action@v6\n        with:\n          context: .\n";

const PREVIEW: &str = "on: [pull_request]\njobs:\n  image:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: docker/build-push-action@v6\n        with:\n          push: true\n          tags: ghcr.io/acme/shop:preview\n";

#[test]
fn an_image_build_that_does_not_push_publishes_nothing() {
    let project = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            ("architecture.ag", SPEC),
            (".github/workflows/release.yml", RELEASE),
            (".github/workflows/checks.yml", CHECKS),
            (".github/workflows/preview.yml", PREVIEW),
        ],
    );
    let (code, verdict) = check_all(project.path());
    assert_eq!(code, 1, "{verdict:#}");
    let files: Vec<&str> = verdict["workflow_violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|violation| violation["file"].as_str().unwrap())
        .collect();
    assert_eq!(files, [".github/workflows/preview.yml"], "{verdict:#}");
}
