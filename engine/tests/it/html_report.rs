//! `--format html`: one self-contained page, opened in a real headless browser (Debian's
//! `chromium`, installed by `scripts/setup.sh`). A test fails when the page has a script error,
//! draws no graph, or misses a finding.

use std::path::Path;
use std::process::Command;

use super::{example, lintel};

/// The page's DOM after its scripts ran, as headless Chromium serialises it.
fn rendered_dom(page: &Path) -> String {
    let profile = tempfile::tempdir().unwrap();
    let output = Command::new("chromium")
        .args([
            "--headless",
            "--disable-dev-shm-usage",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap_or_else(|error| {
            panic!("cannot run chromium (scripts/setup.sh installs it): {error}")
        });
    assert!(
        output.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// The value of `attribute` on the page's `<body>`.
fn body_attribute(dom: &str, attribute: &str) -> Option<String> {
    let body = &dom[dom.find("<body")?..];
    let tag = &body[..body.find('>')?];
    let start = tag.find(&format!("{attribute}=\""))? + attribute.len() + 2;
    Some(tag[start..][..tag[start..].find('"')?].to_owned())
}

fn report(args: &[&str], project: &Path) -> (String, Option<i32>) {
    let output = lintel()
        .args(args)
        .arg("--project")
        .arg(project)
        .output()
        .unwrap();
    (
        String::from_utf8(output.stdout).unwrap(),
        output.status.code(),
    )
}

#[test]
fn the_check_report_draws_the_graph_and_every_finding_in_a_browser() {
    let project = example("layered-api");
    let (page, code) = report(
        &["check", "--all", "--no-cache", "--format", "html"],
        &project,
    );
    // The check's exit status: the example has a blocking finding.
    assert_eq!(code, Some(1));
    assert!(page.starts_with("<!DOCTYPE html>"));
    // Self-contained: nothing is fetched.
    for outside in ["src=\"http", "href=\"http", "url(http", "@import", "<link"] {
        assert!(!page.contains(outside), "the page requests `{outside}`");
    }
    let json = lintel()
        .args(["check", "--all", "--no-cache", "--json", "--project"])
        .arg(&project)
        .output()
        .unwrap();
    let verdict: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let violations = verdict["violations"].as_array().unwrap();
    assert!(!violations.is_empty());

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("report.html");
    std::fs::write(&file, &page).unwrap();
    let dom = rendered_dom(&file);
    assert_eq!(
        body_attribute(&dom, "data-error"),
        None,
        "the page has a script error"
    );
    let rendered = body_attribute(&dom, "data-rendered").expect("the page's script did not finish");
    let nodes: usize = rendered.split(' ').next().unwrap().parse().unwrap();
    assert!(nodes >= 3, "{rendered}");
    assert!(dom.contains("<svg"), "no graph drawn");
    // The broken edge is drawn red, and each finding is listed with its code frame.
    assert!(dom.contains("class=\"edge violated"), "no violated edge");
    for violation in violations {
        let id = violation["id"].as_str().unwrap();
        assert!(
            dom.contains(&format!("id=\"{id}\"")),
            "finding {id} is not on the page"
        );
        assert!(
            dom.contains(&format!("lintel explain --violation {id} --all")),
            "no explain command for {id}"
        );
    }
    let evidence_file = violations[0]["detected"]["file"].as_str().unwrap();
    let evidence_line = violations[0]["detected"]["line"].as_u64().unwrap();
    let source = std::fs::read_to_string(project.join(evidence_file)).unwrap();
    let line_text = source
        .lines()
        .nth(usize::try_from(evidence_line).unwrap() - 1)
        .unwrap()
        .trim();
    let escaped = line_text
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    assert!(
        dom.contains(&escaped),
        "the code frame of the first finding is missing: {line_text}"
    );
}

#[test]
fn a_script_error_on_the_page_is_caught_by_the_harness() {
    let project = example("layered-api");
    let (page, _) = report(
        &["graph", "--all", "--no-cache", "--format", "html"],
        &project,
    );
    let broken = page.replacen(
        "</body>",
        "<script>throw new Error('boom');</script></body>",
        1,
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("broken.html");
    std::fs::write(&file, broken).unwrap();
    let error = body_attribute(&rendered_dom(&file), "data-error");
    assert!(error.is_some_and(|message| message.contains("boom")));
}

#[test]
fn graph_writes_the_same_page_to_a_file_and_passes() {
    let project = example("layered-api");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("graph.html");
    let output = lintel()
        .args(["graph", "--all", "--no-cache", "--format", "html", "--out"])
        .arg(&file)
        .arg("--project")
        .arg(&project)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let page = std::fs::read_to_string(&file).unwrap();
    let (from_check, _) = report(
        &["check", "--all", "--no-cache", "--format", "html"],
        &project,
    );
    // The timestamp and elapsed times are the only differences between two runs.
    assert_eq!(without_times(&page), without_times(&from_check));
    assert!(body_attribute(&rendered_dom(&file), "data-rendered").is_some());
}

/// The page with the values of `timestamp` and every `elapsed_ms` left out.
fn without_times(page: &str) -> String {
    let mut out = String::new();
    let mut rest = page;
    loop {
        let next = ["\"timestamp\":\"", "\"elapsed_ms\":"]
            .iter()
            .filter_map(|key| rest.find(key).map(|at| (at, key.len())))
            .min();
        let Some((at, len)) = next else { break };
        out.push_str(&rest[..at + len]);
        rest = rest[at + len..]
            .trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == ':' || c == '-');
    }
    out.push_str(rest);
    out
}
