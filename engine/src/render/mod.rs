//! Renderers over the one verdict model: each format is one file.

pub mod github;
pub mod html;
pub mod json;
pub mod sarif;
pub mod text;

/// One entry of the contract, workflow or change arrays, as the renderers show it.
pub struct OtherEntry {
    /// Entry `type`.
    pub entry_type: String,
    /// Whether it blocks.
    pub blocking: bool,
    /// Message.
    pub message: String,
    /// Evidence file.
    pub file: String,
    /// Evidence line.
    pub line: u32,
    /// Entry id.
    pub id: String,
    /// `new`, `existing` or `unchanged`.
    pub status: &'static str,
    /// Why it is accepted, or that its waiver expired ([`acceptance`]).
    pub acceptance: Option<String>,
    /// Its waiver, if any.
    pub waiver: Option<crate::verdict::WaiverRef>,
    /// True when the baseline lists it.
    pub baselined: Option<bool>,
}

/// One line on why a finding is accepted (its baseline entry or waiver), or that its waiver has
/// expired and it blocks again; `None` for a finding neither covers.
pub fn acceptance(
    baselined: Option<bool>,
    waiver: Option<&crate::verdict::WaiverRef>,
) -> Option<String> {
    if let Some(waiver) = waiver {
        let source = &waiver.source;
        return Some(if waiver.expired {
            format!(
                "waiver expired on {} (owner {}, {}:{}): this finding blocks again",
                waiver.until, waiver.owner, source.file, source.line
            )
        } else {
            format!(
                "accepted: waived until {} (owner {}, {}:{}): {}",
                waiver.until, waiver.owner, source.file, source.line, waiver.reason
            )
        });
    }
    (baselined == Some(true)).then(|| "accepted: listed in the baseline".to_owned())
}

/// The entries of `contract_violations`, `contract_warnings`, `workflow_violations`,
/// `workflow_warnings` and `change_violations`, in that order.
pub fn other_entries(verdict: &crate::verdict::Verdict) -> Vec<OtherEntry> {
    let mut entries = Vec::new();
    for entry in verdict
        .contract_violations
        .iter()
        .chain(&verdict.contract_warnings)
    {
        entries.push(OtherEntry {
            entry_type: entry.violation_type.to_owned(),
            blocking: entry.blocking,
            message: entry.message.clone(),
            file: entry.file.clone().unwrap_or_default(),
            line: entry.line.unwrap_or(1),
            id: entry.id.clone(),
            status: entry.status,
            acceptance: acceptance(entry.baselined, entry.waiver.as_ref()),
            waiver: entry.waiver.clone(),
            baselined: entry.baselined,
        });
    }
    for entry in verdict
        .workflow_violations
        .iter()
        .chain(&verdict.workflow_warnings)
    {
        entries.push(OtherEntry {
            entry_type: entry.violation_type.to_owned(),
            blocking: entry.blocking,
            message: entry.message.clone(),
            file: entry.file.clone(),
            line: entry.line.unwrap_or(1),
            id: entry.id.clone(),
            status: entry.status,
            acceptance: acceptance(entry.baselined, entry.waiver.as_ref()),
            waiver: entry.waiver.clone(),
            baselined: entry.baselined,
        });
    }
    for entry in &verdict.change_violations {
        entries.push(OtherEntry {
            entry_type: entry.violation_type.to_owned(),
            blocking: entry.blocking,
            message: entry.message.clone(),
            file: entry.trigger_files.first().cloned().unwrap_or_default(),
            line: 1,
            id: entry.id.clone(),
            status: entry.status,
            acceptance: acceptance(entry.baselined, entry.waiver.as_ref()),
            waiver: entry.waiver.clone(),
            baselined: entry.baselined,
        });
    }
    entries
}

/// The ids of every blocking entry of the four blocking arrays.
pub fn blocking_entries(verdict: &crate::verdict::Verdict) -> Vec<String> {
    verdict
        .violations
        .iter()
        .filter(|violation| violation.blocking)
        .map(|violation| violation.id.clone())
        .chain(
            other_entries(verdict)
                .into_iter()
                .filter(|entry| entry.blocking)
                .map(|entry| entry.id),
        )
        .collect()
}
