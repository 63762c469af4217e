//! The entries of the blocking and warning arrays (`violations`, `contract_*`, `workflow_*`,
//! `change_violations`) and their `explain` details, one per proved candidate.

use std::collections::{BTreeMap, BTreeSet};

use policies::facts::Confidence;
use policies::model::Rule;

use super::ids::{contract_id, id_of, status_of, violation_id};
use super::proofs::{change_proof, z3_proof};
use super::rules::{fix_class, rule_ref, source_ref};
use super::{ChainFact, EntryProof, FindingDetail};
use crate::families::{
    Candidate, ChangeShape, ContractShape, Detail, FactTable, Shape, WorkflowShape,
};
use crate::input::options::CheckOptions;
use crate::solve::SolveOutcome;
use crate::verdict::{
    ArchitectureViolation, ChangeViolation, ContractProof, ContractViolation, Detected,
    GraphEvidence, Occurrence, PolicyRuleRef, QueryRef, Warning, WorkflowViolation, Z3Proof,
};

/// The `explain` details every entry shares.
fn base_detail(
    candidate: &Candidate,
    table: &FactTable<'_>,
    proof: EntryProof,
    file: &str,
    line: u32,
) -> FindingDetail {
    let citation = &candidate.citation;
    FindingDetail {
        violation_type: candidate.violation_type.to_owned(),
        rule_kind: citation.kind.name().to_owned(),
        declaration: citation.declaration.clone(),
        spec_citation: citation.source.to_string(),
        rule_text: citation.text.clone(),
        file: file.to_owned(),
        line,
        evidence: candidate.site.message.clone(),
        proof,
        smt_script: candidate.slice.script(),
        chain: chain_of(candidate, table),
        fix_class: fix_class(citation.kind),
        suggested_fix: candidate.suggested_fix.clone(),
    }
}

/// Collects the entries of every array while the candidates are assembled.
#[derive(Default)]
pub(super) struct Entries {
    /// `violations`, by id.
    pub(super) violations: BTreeMap<String, ArchitectureViolation>,
    /// `contract_violations`, by id.
    pub(super) contract_violations: BTreeMap<String, ContractViolation>,
    /// `contract_warnings`, by id.
    pub(super) contract_warnings: BTreeMap<String, ContractViolation>,
    /// `workflow_violations`, by id.
    pub(super) workflow_violations: BTreeMap<String, WorkflowViolation>,
    /// `workflow_warnings`, by id.
    pub(super) workflow_warnings: BTreeMap<String, WorkflowViolation>,
    /// `change_violations`, by id.
    pub(super) change_violations: BTreeMap<String, ChangeViolation>,
    /// `probable-fact` warnings.
    pub(super) warnings: Vec<Warning>,
    /// The `explain` details of the blocking entries, by id.
    pub(super) details: BTreeMap<String, FindingDetail>,
}

fn detected_of(candidate: &Candidate, detail: &Detail, table: &FactTable<'_>) -> Detected {
    let mut occurrences: Vec<Occurrence> = candidate
        .occurrences
        .iter()
        .map(|(file, line)| Occurrence {
            file: file.clone(),
            line: *line,
        })
        .collect();
    occurrences.sort();
    occurrences.dedup();
    let query = candidate
        .site
        .fact
        .and_then(|index| table.get(index))
        .and_then(|fact| fact.query())
        .map(|query| QueryRef {
            id: query.id.clone(),
            version: query.version,
            file: query.file.clone(),
            graph_fact_id: query.graph_fact_id.clone(),
        });
    Detected {
        from: detail.from.clone(),
        to: detail.to.clone(),
        via: detail.via.clone(),
        via_members: detail.via_members.clone(),
        data: detail.data.clone(),
        path: detail.path.clone(),
        files: detail.files.clone(),
        operation: detail.operation.clone(),
        required_component: detail.required_component.clone(),
        interface: detail.interface.clone(),
        field: detail.field.clone(),
        relation: detail.relation.clone(),
        value: detail.value.clone(),
        from_state: detail.from_state.clone(),
        to_state: detail.to_state.clone(),
        illegal_sources: detail.illegal_sources.clone(),
        event: detail.event.clone(),
        preceded_by: detail.preceded_by.clone(),
        scope: detail.scope.clone(),
        role: detail.role.clone(),
        services: detail.services.clone(),
        lifetimes: detail.lifetimes.clone(),
        members: detail.members.clone(),
        public_files: detail.public_files.clone(),
        confidence: candidate.confidence.as_str(),
        evidence: candidate.site.message.clone(),
        file: candidate.site.file.clone(),
        line: candidate.site.line,
        column: candidate.site.column,
        occurrences: (!occurrences.is_empty()).then_some(occurrences),
        query,
    }
}

fn chain_of(candidate: &Candidate, table: &FactTable<'_>) -> Vec<ChainFact> {
    candidate
        .chain
        .iter()
        .filter_map(|index| table.get(*index))
        .map(|fact| ChainFact {
            graph_fact_id: fact.graph_fact_id().to_owned(),
            kind: fact.kind(),
            file: fact.evidence().file.to_string(),
            line: fact.evidence().line,
            evidence: fact.evidence().message.to_string(),
        })
        .collect()
}

fn probable_warning(candidate: &Candidate, from: Option<String>, to: Option<String>) -> Warning {
    Warning {
        code: "probable-fact".into(),
        message: format!("probable: {}", candidate.message),
        file: Some(candidate.site.file.clone()),
        line: Some(candidate.site.line),
        from,
        to,
        evidence: Some(candidate.site.message.clone()),
        violation_type: Some(candidate.violation_type.to_owned()),
        invariant: Some(candidate.citation.declaration.clone()),
        rule: Some(candidate.citation.text.clone()),
    }
}

pub(super) struct AssembleContext<'a> {
    /// The check's options (`--strict`).
    pub(super) options: &'a CheckOptions,
    /// The merge base's finding ids, under `--diff`.
    pub(super) base_ids: Option<&'a BTreeSet<String>>,
    /// The run's facts.
    pub(super) table: FactTable<'a>,
    /// The model's rules.
    pub(super) rules: &'a [Rule],
}

impl Entries {
    /// Adds the entry of a proved candidate to its array (a probable fact's finding, unless
    /// `--strict`, to `warnings` or its array's warnings).
    pub(super) fn add_proved(
        &mut self,
        assemble: &AssembleContext<'_>,
        candidate: &Candidate,
        outcome: &SolveOutcome,
        slice_id: &str,
    ) {
        if candidate.confidence < Confidence::Probable {
            return;
        }
        match &candidate.shape {
            Shape::Architecture(detail) => {
                self.add_architecture(assemble, candidate, outcome, slice_id, detail);
            }
            Shape::Contract(shape) => {
                self.add_contract(assemble, candidate, outcome, slice_id, shape)
            }
            Shape::Workflow(shape) => {
                self.add_workflow(assemble, candidate, outcome, slice_id, shape)
            }
            Shape::Change(shape) => self.add_change(assemble, candidate, outcome, slice_id, shape),
        }
    }

    /// An entry of `violations` (merged with an equal one into `occurrences`).
    fn add_architecture(
        &mut self,
        assemble: &AssembleContext<'_>,
        candidate: &Candidate,
        outcome: &SolveOutcome,
        slice_id: &str,
        detail: &Detail,
    ) {
        let table = &assemble.table;
        let citation = &candidate.citation;
        let is_probable = candidate.confidence < Confidence::Definite;
        let strict = assemble.options.strict;
        if is_probable && !strict {
            self.warnings.push(probable_warning(
                candidate,
                detail.from.clone(),
                detail.to.clone(),
            ));
            return;
        }
        let rule = candidate
            .rules
            .first()
            .and_then(|index| assemble.rules.get(*index));
        let detected = detected_of(candidate, detail, table);
        let graph_evidence = candidate
            .site
            .fact
            .and_then(|index| table.get(index))
            .map(|fact| GraphEvidence {
                graph_fact_id: fact.graph_fact_id().to_owned(),
                kind: fact.kind(),
                extractor: fact.evidence().extractor.to_string(),
                file: fact.evidence().file.to_string(),
                line: fact.evidence().line,
                evidence: fact.evidence().message.to_string(),
            });
        let mut violation = ArchitectureViolation {
            id: String::new(),
            violation_type: candidate.violation_type,
            status: "unchanged",
            blocking: true,
            baselined: None,
            waiver: None,
            invariant: citation.declaration.clone(),
            rule: rule_ref(citation, rule),
            detected,
            graph_evidence,
            message: candidate.message.clone(),
            z3_proof: z3_proof(&candidate.slice, outcome, slice_id),
        };
        violation.id = violation_id(&violation, &candidate.site.evidence_key, candidate.per_pair);
        violation.status = match &candidate.shape {
            // A pair finding whose witness opens a path the base lacks is new work,
            // whatever the base held for the pair (see Status and blocking in docs/VERDICT.md).
            Shape::Architecture(detail) if detail.opens_path && assemble.base_ids.is_some() => {
                "new"
            }
            _ => status_of(&violation.id, assemble.base_ids),
        };
        if !self.violations.contains_key(&violation.id) {
            let detail = base_detail(
                candidate,
                table,
                EntryProof::Slice(violation.z3_proof.clone()),
                &violation.detected.file,
                violation.detected.line,
            );
            self.details.insert(violation.id.clone(), detail);
        }
        merge_violation(&mut self.violations, violation);
    }

    /// An entry of `contract_violations`.
    fn add_contract(
        &mut self,
        assemble: &AssembleContext<'_>,
        candidate: &Candidate,
        outcome: &SolveOutcome,
        slice_id: &str,
        shape: &ContractShape,
    ) {
        let table = &assemble.table;
        let is_probable = candidate.confidence < Confidence::Definite;
        let strict = assemble.options.strict;
        if is_probable && !strict {
            self.warnings.push(probable_warning(
                candidate,
                Some(shape.component.clone()),
                None,
            ));
            return;
        }
        let id = contract_id(candidate.violation_type, shape, &candidate.site.file);
        let proof = z3_proof(&candidate.slice, outcome, slice_id);
        let mut detail = base_detail(
            candidate,
            table,
            EntryProof::Slice(proof.clone()),
            &candidate.site.file,
            candidate.site.line,
        );
        detail.rule_kind = candidate.violation_type.to_owned();
        detail.declaration = shape.contract.clone();
        detail.rule_text = shape
            .declared
            .clone()
            .unwrap_or_else(|| shape.contract.clone());
        detail.fix_class = "fix_contract";
        self.details.entry(id.clone()).or_insert(detail);
        let entry = contract_entry(
            candidate.violation_type,
            shape,
            &candidate.site,
            &candidate.message,
            Some(proof),
            status_of(&id, assemble.base_ids),
            id,
        );
        self.contract_violations
            .entry(entry.id.clone())
            .or_insert(entry);
    }

    /// An entry of `workflow_violations`, or of `workflow_warnings` for a probable fact.
    fn add_workflow(
        &mut self,
        assemble: &AssembleContext<'_>,
        candidate: &Candidate,
        outcome: &SolveOutcome,
        slice_id: &str,
        shape: &WorkflowShape,
    ) {
        let table = &assemble.table;
        let citation = &candidate.citation;
        let is_probable = candidate.confidence < Confidence::Definite;
        let strict = assemble.options.strict;
        let file = candidate.site.file.clone();
        let id = id_of(&[
            candidate.violation_type.to_owned(),
            citation.declaration.clone(),
            citation.text.clone(),
            file.clone(),
            shape.job.clone(),
            shape
                .step
                .clone()
                .or_else(|| shape.permission.clone())
                .unwrap_or_default(),
        ]);
        let proof = z3_proof(&candidate.slice, outcome, slice_id);
        let warning = is_probable && !strict;
        let entry = WorkflowViolation {
            id: id.clone(),
            violation_type: candidate.violation_type,
            status: status_of(&id, assemble.base_ids),
            blocking: !warning,
            baselined: None,
            waiver: None,
            policy: citation.declaration.clone(),
            rule: PolicyRuleRef {
                kind: citation.kind.name(),
                text: citation.text.clone(),
                source: source_ref(&citation.source),
            },
            workflow: shape.workflow.clone(),
            file,
            line: Some(candidate.site.line),
            job: shape.job.clone(),
            step: shape.step.clone(),
            action: shape.action.clone(),
            target: shape.target.clone(),
            permission: shape.permission.clone(),
            access: shape.access.clone(),
            message: candidate.message.clone(),
            evidence: candidate.site.message.clone(),
            z3_proof: proof.clone(),
        };
        if warning {
            self.workflow_warnings.entry(id).or_insert(entry);
        } else {
            let detail = base_detail(
                candidate,
                table,
                EntryProof::Slice(proof),
                &candidate.site.file,
                candidate.site.line,
            );
            self.details.entry(id.clone()).or_insert(detail);
            self.workflow_violations.entry(id).or_insert(entry);
        }
    }

    /// An entry of `change_violations`.
    fn add_change(
        &mut self,
        assemble: &AssembleContext<'_>,
        candidate: &Candidate,
        outcome: &SolveOutcome,
        slice_id: &str,
        shape: &ChangeShape,
    ) {
        let table = &assemble.table;
        let citation = &candidate.citation;
        let id = id_of(&[
            candidate.violation_type.to_owned(),
            citation.declaration.clone(),
            shape.trigger.clone(),
            shape.required.clone(),
        ]);
        let proof = change_proof(&candidate.slice, outcome, slice_id);
        let detail = base_detail(
            candidate,
            table,
            EntryProof::Change(proof.clone()),
            &candidate.site.file,
            candidate.site.line,
        );
        self.details.entry(id.clone()).or_insert(detail);
        let entry = ChangeViolation {
            id: id.clone(),
            violation_type: candidate.violation_type,
            // Under --diff a change violation is always new.
            status: if assemble.base_ids.is_some() {
                "new"
            } else {
                "unchanged"
            },
            blocking: true,
            baselined: None,
            waiver: None,
            policy: citation.declaration.clone(),
            rule: PolicyRuleRef {
                kind: citation.kind.name(),
                text: citation.text.clone(),
                source: source_ref(&citation.source),
            },
            trigger: shape.trigger.clone(),
            required: shape.required.clone(),
            message: candidate.message.clone(),
            trigger_files: shape.trigger_files.clone(),
            required_globs: shape.required_globs.clone(),
            required_glob: shape.required_globs.first().cloned().unwrap_or_default(),
            z3_proof: proof,
        };
        self.change_violations.entry(id).or_insert(entry);
    }
}

pub(super) fn contract_entry(
    violation_type: &'static str,
    shape: &ContractShape,
    site: &crate::families::Site,
    message: &str,
    z3_proof: Option<Z3Proof>,
    status: &'static str,
    id: String,
) -> ContractViolation {
    ContractViolation {
        id,
        violation_type,
        severity: if z3_proof.is_some() {
            "error"
        } else {
            "warning"
        },
        status,
        blocking: z3_proof.is_some(),
        baselined: None,
        waiver: None,
        contract: shape.contract.clone(),
        component: shape.component.clone(),
        role: shape.role,
        declared: shape.declared.clone(),
        extracted: shape.extracted.clone(),
        file: Some(site.file.clone()),
        line: Some(site.line),
        message: message.to_owned(),
        proof: ContractProof {
            contract_assertion: shape.contract_assertion.clone(),
            extractor_result: shape.extractor_result.clone(),
            explanation: shape.explanation.clone(),
        },
        z3_proof,
    }
}

/// Two findings with one id are one finding with `occurrences`; the one first in (file, line,
/// column) is the finding, whatever order they come in, and the others its occurrences.
fn merge_violation(
    violations: &mut BTreeMap<String, ArchitectureViolation>,
    violation: ArchitectureViolation,
) {
    match violations.get_mut(&violation.id) {
        None => {
            violations.insert(violation.id.clone(), violation);
        }
        Some(existing) => {
            let mut violation = violation;
            let place = |violation: &ArchitectureViolation| {
                (
                    violation.detected.file.clone(),
                    violation.detected.line,
                    violation.detected.column,
                )
            };
            if place(&violation) < place(existing) {
                std::mem::swap(existing, &mut violation);
            }
            let mut occurrences = existing.detected.occurrences.take().unwrap_or_default();
            occurrences.push(Occurrence {
                file: violation.detected.file.clone(),
                line: violation.detected.line,
            });
            occurrences.extend(violation.detected.occurrences.unwrap_or_default());
            occurrences.sort();
            occurrences.dedup();
            occurrences.retain(|occurrence| {
                occurrence.file != existing.detected.file
                    || occurrence.line != existing.detected.line
            });
            existing.detected.occurrences = (!occurrences.is_empty()).then_some(occurrences);
        }
    }
}
