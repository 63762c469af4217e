//! The slice builder: declarations plus tracked assertions, rendered to SMT-LIB text.
//!
//! The builder knows the sorts, constants and functions each encoding uses and declares exactly
//! those, in a fixed order (`Entity`, `Data`, then other sorts by name; constants by sort, then
//! name; functions in [`FUNCTIONS`] order, then by name), so equal slices have equal text.

use std::collections::{BTreeMap, BTreeSet};

use super::symbol::{data_symbol, entity_symbol, quote_symbol};

/// What a tracked assertion stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AssertionRole {
    /// The rule's own constraint (part of `permanent_constraint`).
    Rule,
    /// A definition the rule relies on, such as the reach closure (part of `permanent_constraint`).
    Axiom,
    /// A fact from the code or the spec (part of `delta_assertion`).
    Fact,
}

/// One tracked assertion `(assert (=> |a!N| formula))`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrackedAssertion {
    /// The indicator literal's name, `a!N` (unquoted).
    pub literal: String,
    /// The human name reported in unsat cores, e.g. `rule Layering: deny flow Web -> db`.
    pub name: String,
    /// What it stands for.
    pub role: AssertionRole,
    /// The SMT-LIB formula φ.
    pub formula: String,
    /// The graph fact it encodes, for fact assertions that come from extracted code.
    pub fact_id: Option<String>,
    /// Needed by construction whenever the slice is unsat with it (a step of a ground chain,
    /// `chain.rs`): the minimal-core search keeps it without a check.
    pub necessary: bool,
}

/// A finished slice: self-contained SMT-LIB text and its literal table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slice {
    /// The SMT-LIB text (declarations and tracked assertions, no check command).
    pub text: String,
    /// Every tracked assertion, in literal order.
    pub tracked: Vec<TrackedAssertion>,
}

impl Slice {
    /// How many assertions the solver must hold after loading [`Slice::text`].
    pub fn assertion_count(&self) -> usize {
        self.tracked.len()
    }

    /// The replayable script: the text followed by `(check-sat-assuming (…))` over every literal.
    pub fn script(&self) -> String {
        let literals: Vec<String> = self
            .tracked
            .iter()
            .map(|tracked| quote_symbol(&tracked.literal))
            .collect();
        format!(
            "{}(check-sat-assuming ({}))\n",
            self.text,
            literals.join(" ")
        )
    }

    /// The tracked assertion behind an unquoted literal name.
    pub fn assertion(&self, literal: &str) -> Option<&TrackedAssertion> {
        self.tracked
            .iter()
            .find(|tracked| tracked.literal == literal)
    }
}

/// A constant of a sort other than `Entity` and `Data`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct OtherConstant {
    sort: String,
    symbol: String,
}

/// Collects declarations and tracked assertions for one rule slice.
#[derive(Debug, Default)]
pub struct SliceBuilder {
    comment: String,
    entities: BTreeSet<String>,
    data: BTreeSet<String>,
    sorts: BTreeSet<String>,
    datatypes: BTreeMap<String, String>,
    others: BTreeSet<OtherConstant>,
    /// Constants of other sorts that stand for distinct names (the `distinct` axioms cover them).
    named: BTreeMap<String, BTreeSet<String>>,
    functions: BTreeMap<String, String>,
    tracked: Vec<TrackedAssertion>,
}

/// The functions of the path encodings, declared first and in this order.
const FUNCTIONS: [(&str, &str); 5] = [
    ("edge", "(declare-fun edge (Entity Entity) Bool)"),
    ("reach", "(declare-fun reach (Entity Entity) Bool)"),
    ("free", "(declare-fun free (Entity Entity) Bool)"),
    ("via", "(declare-fun via (Entity) Bool)"),
    ("handles", "(declare-fun handles (Entity Data) Bool)"),
];

/// The sorts a declaration names, read from its text.
fn sorts_in(declaration: &str) -> Vec<String> {
    declaration
        .split(['(', ')', ' '])
        .filter(|word| word.chars().next().is_some_and(char::is_uppercase))
        .map(str::to_owned)
        .collect()
}

impl SliceBuilder {
    /// A new builder whose text starts with a `;` comment line naming the rule.
    pub fn new(comment: &str) -> Self {
        Self {
            comment: comment.replace(['\n', '\r'], " "),
            ..Self::default()
        }
    }

    /// Declares an entity constant and returns its symbol.
    pub fn entity(&mut self, name: &str) -> String {
        self.entities.insert(name.to_owned());
        entity_symbol(name)
    }

    /// Declares a data constant and returns its symbol.
    pub fn data(&mut self, name: &str) -> String {
        self.data.insert(name.to_owned());
        data_symbol(name)
    }

    /// Declares the constant `|prefix:name|` of an uninterpreted `sort` and returns its symbol.
    /// Named constants are pairwise distinct under [`SliceBuilder::distinct_names`].
    pub fn named(&mut self, sort: &str, prefix: &str, name: &str) -> String {
        let symbol = quote_symbol(&format!("{prefix}:{name}"));
        self.declare_constant(sort, &symbol);
        self.named
            .entry(sort.to_owned())
            .or_default()
            .insert(symbol.clone());
        symbol
    }

    /// Declares a constant of `sort` that is not a name (a variable, or a wildcard that may equal
    /// any name), so no `distinct` axiom covers it.
    pub fn unnamed(&mut self, sort: &str, prefix: &str, name: &str) -> String {
        let symbol = quote_symbol(&format!("{prefix}:{name}"));
        self.declare_constant(sort, &symbol);
        symbol
    }

    fn declare_constant(&mut self, sort: &str, symbol: &str) {
        if !self.datatypes.contains_key(sort) {
            self.sorts.insert(sort.to_owned());
        }
        self.others.insert(OtherConstant {
            sort: sort.to_owned(),
            symbol: symbol.to_owned(),
        });
    }

    /// Declares an algebraic datatype (emitted with `declare-datatypes`).
    pub fn datatype(&mut self, sort: &str, declaration: &str) {
        self.sorts.remove(sort);
        self.datatypes
            .insert(sort.to_owned(), declaration.to_owned());
    }

    /// Declares a function; its sorts are read from the declaration text.
    pub fn function(&mut self, name: &str, declaration: &str) {
        for sort in sorts_in(declaration) {
            let is_builtin = matches!(sort.as_str(), "Bool" | "Int" | "Real" | "String");
            if !is_builtin && !self.datatypes.contains_key(&sort) {
                self.sorts.insert(sort);
            }
        }
        self.functions
            .insert(name.to_owned(), declaration.to_owned());
    }

    fn uses(&mut self, function: &'static str) {
        if let Some((name, declaration)) = FUNCTIONS.iter().find(|(name, _)| *name == function) {
            self.function(name, declaration);
        }
    }

    /// Adds a tracked assertion.
    pub fn track(
        &mut self,
        role: AssertionRole,
        name: String,
        formula: String,
        fact_id: Option<String>,
    ) {
        let literal = format!("a!{}", self.tracked.len());
        self.tracked.push(TrackedAssertion {
            literal,
            name,
            role,
            formula,
            fact_id,
            necessary: false,
        });
    }

    /// Marks the last tracked assertion as needed by construction.
    pub(crate) fn mark_last_necessary(&mut self) {
        if let Some(last) = self.tracked.last_mut() {
            last.necessary = true;
        }
    }

    /// Asserts the flow edge `from → to` established by a fact.
    pub fn edge_fact(&mut self, name: String, fact_id: Option<String>, from: &str, to: &str) {
        self.uses("edge");
        let formula = format!("(edge {} {})", self.entity(from), self.entity(to));
        self.track(AssertionRole::Fact, name, formula, fact_id);
    }

    /// Asserts that component `handler` handles data `data` (a spec fact).
    pub fn handles_fact(&mut self, handler: &str, data: &str) {
        self.uses("handles");
        let formula = format!("(handles {} {})", self.entity(handler), self.data(data));
        self.track(
            AssertionRole::Fact,
            format!("spec: {handler} handles {data}"),
            formula,
            None,
        );
    }

    /// The rule constraint `(not (edge from to))`.
    pub fn deny_edge(&mut self, name: String, from: &str, to: &str) {
        self.uses("edge");
        let formula = format!("(not (edge {} {}))", self.entity(from), self.entity(to));
        self.track(AssertionRole::Rule, name, formula, None);
    }

    /// The two reach-closure axioms over `edge`.
    pub fn reach_closure(&mut self) {
        self.uses("edge");
        self.uses("reach");
        self.closure("edge", "reach", "Entity", "a path");
    }

    /// The two closure axioms that make `closure` the transitive closure of `relation` over `sort`.
    pub fn closure(&mut self, relation: &str, closure: &str, sort: &str, what: &str) {
        self.track(
            AssertionRole::Axiom,
            format!("axiom: {} is {what}", article_for(relation)),
            format!("(forall ((x {sort}) (y {sort})) (! (=> ({relation} x y) ({closure} x y)) :pattern (({relation} x y))))"),
            None,
        );
        self.track(
            AssertionRole::Axiom,
            format!("axiom: {} followed by {what} is {what}", article_for(relation)),
            format!("(forall ((x {sort}) (y {sort}) (z {sort})) (! (=> (and ({relation} x y) ({closure} y z)) ({closure} x z)) :pattern (({relation} x y) ({closure} y z))))"),
            None,
        );
    }

    /// The rule constraint `(not (reach from to))`.
    pub fn deny_reach(&mut self, name: String, from: &str, to: &str) {
        self.uses("reach");
        let formula = format!("(not (reach {} {}))", self.entity(from), self.entity(to));
        self.track(AssertionRole::Rule, name, formula, None);
    }

    /// The via-set definition and the closure of paths whose interior avoids it.
    pub fn via_closure(&mut self, via: &[String]) {
        self.uses("edge");
        self.uses("free");
        self.uses("via");
        let members: Vec<String> = via
            .iter()
            .map(|member| format!("(= x {})", self.entity(member)))
            .collect();
        let membership = disjunction(&members);
        self.track(
            AssertionRole::Axiom,
            format!("axiom: the via set is {{{}}}", via.join(", ")),
            format!("(forall ((x Entity)) (= (via x) {membership}))"),
            None,
        );
        self.track(
            AssertionRole::Axiom,
            "axiom: an edge is a bypass path".to_owned(),
            "(forall ((x Entity) (y Entity)) (! (=> (edge x y) (free x y)) :pattern ((edge x y))))"
                .to_owned(),
            None,
        );
        self.track(
            AssertionRole::Axiom,
            "axiom: an edge into a non-via entity followed by a bypass path is a bypass path".to_owned(),
            "(forall ((x Entity) (y Entity) (z Entity)) (! (=> (and (edge x y) (not (via y)) (free y z)) (free x z)) :pattern ((edge x y) (free y z))))"
                .to_owned(),
            None,
        );
    }

    /// The rule constraint `(not (free from to))`: no path from `from` to `to` avoids the via set.
    pub fn deny_bypass(&mut self, name: String, from: &str, to: &str) {
        self.uses("free");
        let formula = format!("(not (free {} {}))", self.entity(from), self.entity(to));
        self.track(AssertionRole::Rule, name, formula, None);
    }

    /// The rule constraint: no handler of `data` reaches `to` (with `bypass_only`, no handler
    /// outside the via set reaches `to` on a path that avoids it).
    pub fn deny_data_reach(&mut self, name: String, data: &str, to: &str, bypass_only: bool) {
        self.uses("handles");
        let data = self.data(data);
        let target = self.entity(to);
        let formula = if bypass_only {
            self.uses("via");
            self.uses("free");
            format!("(forall ((h Entity)) (=> (and (handles h {data}) (not (via h))) (not (free h {target}))))")
        } else {
            self.uses("reach");
            format!("(forall ((h Entity)) (=> (handles h {data}) (not (reach h {target}))))")
        };
        self.track(AssertionRole::Rule, name, formula, None);
    }

    /// Asserts that the entities of the slice are pairwise distinct (distinct names are distinct entities).
    pub fn distinct_entities(&mut self) {
        if self.entities.len() < 2 {
            return;
        }
        let symbols: Vec<String> = self
            .entities
            .iter()
            .map(|name| entity_symbol(name))
            .collect();
        self.track(
            AssertionRole::Axiom,
            "axiom: distinct names are distinct entities".to_owned(),
            format!("(distinct {})", symbols.join(" ")),
            None,
        );
    }

    /// Asserts that distinct names are distinct constants: entities, data, and every sort's
    /// named constants (never variables or wildcards).
    pub fn distinct_names(&mut self) {
        self.distinct_entities();
        if self.data.len() >= 2 {
            let symbols: Vec<String> = self.data.iter().map(|name| data_symbol(name)).collect();
            self.track(
                AssertionRole::Axiom,
                "axiom: distinct names are distinct data".to_owned(),
                format!("(distinct {})", symbols.join(" ")),
                None,
            );
        }
        let named = self.named.clone();
        for (sort, symbols) in named {
            if symbols.len() < 2 {
                continue;
            }
            let symbols: Vec<String> = symbols.into_iter().collect();
            self.track(
                AssertionRole::Axiom,
                format!("axiom: distinct names are distinct {sort} values"),
                format!("(distinct {})", symbols.join(" ")),
                None,
            );
        }
    }

    /// Renders the slice text.
    pub fn finish(self) -> Slice {
        let mut text = format!("; {}\n", self.comment);
        let needs_entity = !self.entities.is_empty() || self.sorts.contains("Entity");
        let needs_data = !self.data.is_empty() || self.sorts.contains("Data");
        if needs_entity {
            text.push_str("(declare-sort Entity 0)\n");
        }
        if needs_data {
            text.push_str("(declare-sort Data 0)\n");
        }
        for sort in &self.sorts {
            if sort != "Entity" && sort != "Data" {
                text.push_str(&format!("(declare-sort {sort} 0)\n"));
            }
        }
        for declaration in self.datatypes.values() {
            text.push_str(declaration);
            text.push('\n');
        }
        for name in &self.entities {
            text.push_str(&format!("(declare-const {} Entity)\n", entity_symbol(name)));
        }
        for name in &self.data {
            text.push_str(&format!("(declare-const {} Data)\n", data_symbol(name)));
        }
        for constant in &self.others {
            text.push_str(&format!(
                "(declare-const {} {})\n",
                constant.symbol, constant.sort
            ));
        }
        for (name, declaration) in FUNCTIONS {
            if self.functions.contains_key(name) {
                text.push_str(declaration);
                text.push('\n');
            }
        }
        for (name, declaration) in &self.functions {
            if !FUNCTIONS.iter().any(|(known, _)| known == name) {
                text.push_str(declaration);
                text.push('\n');
            }
        }
        for tracked in &self.tracked {
            let literal = quote_symbol(&tracked.literal);
            text.push_str(&format!(
                "; {} = {}\n",
                tracked.literal,
                tracked.name.replace(['\n', '\r'], " ")
            ));
            text.push_str(&format!(
                "(declare-const {literal} Bool)\n(assert (=> {literal} {}))\n",
                tracked.formula
            ));
        }
        Slice {
            text,
            tracked: self.tracked,
        }
    }
}

/// `(or a b …)`, `a` for one disjunct, `false` for none.
pub(crate) fn disjunction(parts: &[String]) -> String {
    match parts {
        [] => "false".to_owned(),
        [one] => one.clone(),
        _ => format!("(or {})", parts.join(" ")),
    }
}

/// `(and a b …)`, `a` for one conjunct, `true` for none.
pub(crate) fn conjunction(parts: &[String]) -> String {
    match parts {
        [] => "true".to_owned(),
        [one] => one.clone(),
        _ => format!("(and {})", parts.join(" ")),
    }
}

fn article_for(relation: &str) -> String {
    match relation {
        "edge" => "an edge".to_owned(),
        other => format!("a `{other}` step"),
    }
}
