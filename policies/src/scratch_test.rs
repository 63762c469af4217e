#[test]
fn scratch() {
    let input = std::fs::read_to_string("/tmp/scratch.ag").unwrap();
    let output = crate::compile::compile_source("spec.ag", &input);
    for d in &output.diagnostics {
        println!(
            "{}{}",
            d.headline(),
            d.help
                .as_ref()
                .map(|h| format!("  [help: {h}]"))
                .unwrap_or_default()
        );
    }
    if let Some(model) = output.model {
        for rule in &model.rules {
            println!(
                "RULE {} | {} | {} | {:?}",
                rule.kind.name(),
                rule.text,
                rule.source,
                rule.body
            );
        }
    }
}
