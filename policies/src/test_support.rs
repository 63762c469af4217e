//! Helpers for unit tests: compile a spec from text and assert on its diagnostics.

use crate::compile::{compile_source, CompileOutput};
use crate::diagnostic::Diagnostic;
use crate::model::Model;

/// An example prelude: the declarations most tests build on.
pub const PRELUDE: &str = r#"node app      : server   { trust: trusted }
node db       : postgres { trust: trusted  auth: mtls }
node partner  : rest_api { trust: untrusted }
resource Keys : secure_storage { trust: trusted }
enum Role { Admin | Member }
enum OrderStatus { Draft | Active | Archived }
data Order   { status: OrderStatus  total: Money  items: List<String> }
data Profile { classification: pii  jurisdiction: eu  id: UUID }
component Web  { runs_on: app  paths: "web/**"  role: presentation  layer: Ui }
component Api  { runs_on: app  paths: ["api/**", "shared/api/**"]  role: application  handles: Profile }
component Repo { runs_on: app  paths: "api/repo/**"  role: data_access }
"#;

/// Number of lines in [`PRELUDE`].
pub const PRELUDE_LINES: u32 = 11;

/// Compiles `source` as `spec.ag`.
pub fn compile(source: &str) -> CompileOutput {
    compile_source("spec.ag", source)
}

/// Compiles the prelude followed by `source`.
pub fn compile_with_prelude(source: &str) -> CompileOutput {
    compile(&format!("{PRELUDE}{source}"))
}

fn render(diagnostics: &[Diagnostic]) -> String {
    diagnostics
        .iter()
        .map(Diagnostic::headline)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Asserts that `source` compiles without any diagnostic and returns the model.
#[track_caller]
pub fn assert_clean(source: &str) -> Model {
    let output = compile(source);
    assert!(
        output.diagnostics.is_empty(),
        "unexpected diagnostics:\n{}",
        render(&output.diagnostics)
    );
    output.model.expect("a clean spec has a model")
}

/// Asserts that the prelude plus `source` compiles without any diagnostic.
#[track_caller]
pub fn assert_clean_with_prelude(source: &str) -> Model {
    assert_clean(&format!("{PRELUDE}{source}"))
}

/// Asserts that `source` yields `code` at `line:column` and returns that diagnostic.
#[track_caller]
pub fn assert_diagnostic(source: &str, code: &str, line: u32, column: u32) -> Diagnostic {
    let output = compile(source);
    let found = output
        .diagnostics
        .iter()
        .find(|diagnostic| diagnostic.code == code);
    let Some(found) = found else {
        panic!("no `{code}` in:\n{}", render(&output.diagnostics));
    };
    assert_eq!(
        (found.line, found.column),
        (line, column),
        "wrong location in:\n{}",
        render(&output.diagnostics)
    );
    if found.is_error() {
        assert!(output.model.is_none(), "an error must drop the model");
    }
    found.clone()
}

/// As [`assert_diagnostic`], with the prelude before `source` (lines count from `source`).
#[track_caller]
pub fn assert_diagnostic_with_prelude(
    source: &str,
    code: &str,
    line: u32,
    column: u32,
) -> Diagnostic {
    assert_diagnostic(
        &format!("{PRELUDE}{source}"),
        code,
        line + PRELUDE_LINES,
        column,
    )
}
