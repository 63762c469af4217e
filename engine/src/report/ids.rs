//! Finding ids (see Ids in docs/VERDICT.md): the hash of an entry's identifying fields, never a
//! line number or an absolute path, and the `status` an id gets against the merge base.

use std::collections::BTreeSet;

use sha2::{Digest, Sha256};

use crate::families::ContractShape;
use crate::verdict::ArchitectureViolation;

/// `prefix` + the first 16 hex digits of SHA-256 over `text`.
pub fn hashed_id(prefix: &str, text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    let hex = crate::input::cache::hex(digest.get(..8).unwrap_or_default());
    format!("{prefix}{hex}")
}

pub(super) fn id_of(fields: &[String]) -> String {
    hashed_id("viol_", &serde_json::to_string(fields).unwrap_or_default())
}

/// The violation id of see Ids in docs/VERDICT.md.
pub(super) fn violation_id(
    violation: &ArchitectureViolation,
    evidence_key: &str,
    per_pair: bool,
) -> String {
    let detected = &violation.detected;
    let via = match detected.members.as_ref().or(detected.via_members.as_ref()) {
        Some(members) => {
            let mut members = members.clone();
            members.sort();
            members.join(",")
        }
        None => detected.via.clone().unwrap_or_default(),
    };
    id_of(&[
        violation.violation_type.to_owned(),
        violation.invariant.clone(),
        violation.rule.kind.to_owned(),
        violation.rule.text.clone(),
        detected.from.clone().unwrap_or_default(),
        detected.to.clone().unwrap_or_default(),
        via,
        detected.data.clone().unwrap_or_default(),
        detected.operation.clone().unwrap_or_default(),
        if per_pair {
            String::new()
        } else {
            detected.file.clone()
        },
        if per_pair {
            String::new()
        } else {
            evidence_key.to_owned()
        },
    ])
}

pub(super) fn contract_id(violation_type: &str, shape: &ContractShape, file: &str) -> String {
    id_of(&[
        violation_type.to_owned(),
        shape.contract.clone(),
        shape.component.clone(),
        shape.role.to_owned(),
        shape.method.clone(),
        shape.path.clone(),
        file.to_owned(),
    ])
}

pub(super) fn status_of(id: &str, base_ids: Option<&BTreeSet<String>>) -> &'static str {
    match base_ids {
        Some(base) if base.contains(id) => "existing",
        Some(_) => "new",
        None => "unchanged",
    }
}
