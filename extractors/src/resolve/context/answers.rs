//! The answers the type indexes and the C# projects keep between changes ([`Answers`]).

/// The answers a project index has given to questions since its last change, so that the
/// thousands of files that ask the same question are answered once.
#[derive(Debug)]
pub(crate) struct Answers<Q>(
    std::sync::Mutex<std::collections::HashMap<Q, String, crate::syntax::Fnv>>,
);

impl<Q> Default for Answers<Q> {
    fn default() -> Self {
        Self(std::sync::Mutex::default())
    }
}

impl<Q: std::hash::Hash + Eq + Clone> Answers<Q> {
    /// The answer kept for `question`, else `answer()`, kept.
    pub(crate) fn get_or(&self, question: &Q, answer: impl FnOnce() -> String) -> String {
        if let Some(kept) = self
            .0
            .lock()
            .ok()
            .and_then(|answers| answers.get(question).cloned())
        {
            return kept;
        }
        let answer = answer();
        if let Ok(mut answers) = self.0.lock() {
            answers.insert(question.clone(), answer.clone());
        }
        answer
    }

    /// Forgets every answer (the index changed).
    pub(crate) fn forget(&mut self) {
        *self = Self::default();
    }
}
