//! The graphs the rules are judged on, built over the extracted facts: the component graph of
//! direct edges ([`component_graph`]), the file graph and its chains ([`file_graph`]), and the
//! resolution of technology and HTTP targets both use ([`targets`]).

pub mod component_graph;
pub mod fact_table;
pub mod file_graph;
pub mod targets;
