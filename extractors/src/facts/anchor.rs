//! Where a fact's evidence lies once the syntax tree is gone.

/// What [`super::FactFactory::fact`] reads from a node, kept without the tree: the 1-based start and
/// (exclusive) end positions, the start byte (to compare first uses) and the enclosing scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Anchor {
    /// The 1-based (line, column) of the start.
    pub start: (u32, u32),
    /// The 1-based (line, column) after the end.
    pub end: (u32, u32),
    pub(crate) start_byte: u32,
    /// Index into the file's scopes (`crate::resolve::deferred::Deferred`), [`NO_SCOPE`] for none.
    pub(crate) scope: u32,
}

/// The scope index of an anchor outside every named declaration.
pub(crate) const NO_SCOPE: u32 = u32::MAX;

impl Anchor {
    /// The byte offset of the start, to find the earliest of several uses.
    pub fn start_byte(self) -> u32 {
        self.start_byte
    }
}
