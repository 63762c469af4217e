//! The terminal: `--color auto|always|never` with `NO_COLOR`, no progress line when stderr is not
//! a terminal, and parser messages that point at what is wrong.

use super::{example, lintel};

fn text_check(extra: &[&str], no_color: Option<&str>) -> (String, String) {
    let mut command = lintel();
    command
        .args(["check", "--all", "--no-cache", "--project"])
        .arg(example("layered-api"))
        .args(extra)
        .env_remove("NO_COLOR");
    if let Some(value) = no_color {
        command.env("NO_COLOR", value);
    }
    let output = command.output().unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn color_is_off_on_a_pipe_and_on_when_asked_for_even_with_no_color() {
    let (plain, stderr) = text_check(&[], None);
    assert!(!plain.contains('\x1b'), "{plain}");
    // stderr is a pipe here: no progress line, nothing at all.
    assert_eq!(stderr, "");
    let (never, _) = text_check(&["--color", "never"], None);
    assert_eq!(
        never.replace(char::is_numeric, ""),
        plain.replace(char::is_numeric, "")
    );
    let (always, _) = text_check(&["--color", "always"], Some("1"));
    assert!(
        always.starts_with("\x1b[1;31merror\x1b[0m[flow_violation]: "),
        "{always}"
    );
    assert!(
        always.contains("\x1b[1;31mFAIL:\x1b[0m 1 blocking finding(s)"),
        "{always}"
    );
    // Without the escapes, the coloured report is the plain one.
    let stripped = always
        .split('\x1b')
        .enumerate()
        .map(|(index, part)| {
            if index == 0 {
                part
            } else {
                part.split_once('m').map_or(part, |(_, rest)| rest)
            }
        })
        .collect::<String>();
    assert_eq!(
        stripped.replace(char::is_numeric, ""),
        plain.replace(char::is_numeric, "")
    );
    let output = lintel()
        .args(["check", "--color", "sometimes"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn spec_errors_show_the_line_with_the_span_underlined_in_compile_and_check() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("architecture.ag"),
        "node app : server\ncomponent Api { runs_on: app paths: \"api/**\"\ncomponent Db { runs_on: app paths: \"db/**\" }\n",
    )
    .unwrap();
    let expected = "architecture.ag:2:15: error[unclosed-brace]: `{` is not closed before `component Db` on line 3\n   |\n 2 | component Api { runs_on: app paths: \"api/**\"\n   |               ^\n  = help: add the missing `}` where this block ends\n  = note: architecture.ag:3:1: the next declaration starts here\n";
    let output = lintel()
        .current_dir(dir.path())
        .args(["compile", "architecture.ag"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(String::from_utf8(output.stderr).unwrap(), expected);
    let output = lintel()
        .args(["check", "--all", "--no-cache", "--project"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        format!("{expected}error: the spec has 1 error(s); nothing was checked\n")
    );
}
