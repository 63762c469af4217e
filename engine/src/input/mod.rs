//! What a check reads, before any graph is built: its options, the spec, the git scope, the
//! project files and their components, the extracted facts (with the cache), the reviewed
//! queries, and the progress line that reports on the reading.

pub mod baseline;
pub mod cache;
pub mod extract;
pub mod options;
pub mod paths;
pub mod progress;
pub mod queries;
pub mod scope;
pub mod spec;
pub(crate) mod stored_facts;
pub mod summary;
