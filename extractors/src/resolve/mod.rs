//! Resolution shared by every language: the project's configuration ([`context`]), the facts
//! that wait for the project's type indexes ([`deferred`]) and the route prefixes that cross
//! files ([`links`]).

pub(crate) mod context;
pub(crate) mod deferred;
pub(crate) mod links;
